//go:build tools

// oam-kubernetes-runtime v0.3.3, whose e2e suite (test/e2e-test) build.sh compiles with `go test -c`: required here so
// that go.mod pins it and go.sum holds the suite's dependencies too (ginkgo, gomega).
package oame2e

import (
	_ "github.com/crossplane/oam-kubernetes-runtime/pkg/controller/v1alpha2/applicationconfiguration"
	_ "github.com/onsi/ginkgo"
	_ "github.com/onsi/gomega"
)
