//go:build tools

// The pravega ZooKeeper operator, the benchmark's peer: required here so that go.mod pins it and go.sum holds its
// dependencies. build.sh builds its main package from this module.
package peer

import _ "github.com/pravega/zookeeper-operator"
