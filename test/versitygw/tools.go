//go:build tools

// VersityGW, the S3-compatible server the backup tests write to: required here so that go.mod pins it and go.sum holds
// its dependencies. build.sh builds its `versitygw` command from this module.
package versitygw

import _ "github.com/versity/versitygw/cmd/versitygw"
