//go:build tools

// The cue CLI, which evaluates the KubeVela definitions' CUE templates in deploy/kubevela: required here so that go.mod
// pins it and go.sum holds its dependencies. build.sh builds its main package from this module.
package cue

import _ "cuelang.org/go/cmd/cue"
