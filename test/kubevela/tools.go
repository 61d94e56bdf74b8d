//go:build tools

// KubeVela's core controller (vela-core), which renders Applications through the definitions in deploy/kubevela on the
// bed: required here so that go.mod pins it and go.sum holds its dependencies. build.sh builds its main package from
// this module.
package kubevela

import _ "github.com/oam-dev/kubevela/cmd/core"
