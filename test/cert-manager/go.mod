module zkoam.dev/cert-manager

go 1.26.0

// Only the module's files are used (deploy/crds); nothing is built from it.
require github.com/cert-manager/cert-manager v1.16.2
