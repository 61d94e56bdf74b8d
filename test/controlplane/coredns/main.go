// CoreDNS for the test bed's cluster DNS, with only the plugins its Corefile uses: CoreDNS's own main (coredns.go)
// imports all of core/plugin, some fifty plugins and the cloud SDKs they bring; this one imports seven, which bring
// three more (`coredns -plugins` lists them: metadata, prometheus and transfer) that are no directives here.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
)

// The order a request passes the plugins in, CoreDNS's own (plugin.cfg, as core/dnsserver/zdirectives.go lists it)
// with the plugins not compiled in left out. A Corefile naming any other plugin fails to load.
func init() {
	dnsserver.Directives = []string{
		"ready",
		"health",
		"errors",
		"log",
		"loadbalance",
		"cache",
		"kubernetes",
	}
}

func main() {
	coremain.Run()
}
