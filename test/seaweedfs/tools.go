//go:build tools

// SeaweedFS, the S3-compatible object store the backup tests write to: required here so that go.mod pins it and go.sum
// holds its dependencies. build.sh builds its `weed` command from this module.
package seaweedfs

import _ "github.com/seaweedfs/seaweedfs/weed"
