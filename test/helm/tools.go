//go:build tools

// Helm, which installs the chart in charts/zk-oam: required here so that go.mod pins it and go.sum holds its
// dependencies. build.sh builds its main package from this module.
package helm

import _ "helm.sh/helm/v3/cmd/helm"
