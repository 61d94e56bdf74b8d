// The controllers of oam-kubernetes-runtime v0.3.3 that its e2e suite needs beside an ApplicationConfiguration
// runtime: ContainerizedWorkload, ManualScalerTrait and HealthScope. Its own ApplicationConfiguration controller is
// left out, so that ours is the one the suite tests. Wiring only; every controller is the module's own.
package main

import (
	"flag"
	"os"
	"time"

	"github.com/crossplane/crossplane-runtime/pkg/logging"
	crdv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/crossplane/oam-kubernetes-runtime/apis/core"
	"github.com/crossplane/oam-kubernetes-runtime/pkg/controller"
	"github.com/crossplane/oam-kubernetes-runtime/pkg/controller/v1alpha2/core/scopes/healthscope"
	"github.com/crossplane/oam-kubernetes-runtime/pkg/controller/v1alpha2/core/traits/manualscalertrait"
	"github.com/crossplane/oam-kubernetes-runtime/pkg/controller/v1alpha2/core/workloads/containerizedworkload"
)

func main() {
	var metricsAddr string
	var args controller.Args
	flag.StringVar(&metricsAddr, "metrics-addr", "0", "Where the metrics endpoint listens; 0 turns it off.")
	flag.DurationVar(&args.LongWait, "long-wait", time.Minute, "How often a healthy object is looked at again.")
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseDevMode(true)))
	log := ctrl.Log.WithName("oam-runtime-controllers")

	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, core.AddToScheme, crdv1.AddToScheme} {
		if err := add(scheme); err != nil {
			log.Error(err, "cannot build the scheme")
			os.Exit(1)
		}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme, MetricsBindAddress: metricsAddr})
	if err != nil {
		log.Error(err, "cannot create the manager")
		os.Exit(1)
	}
	for _, setup := range []func(ctrl.Manager, controller.Args, logging.Logger) error{
		containerizedworkload.Setup, manualscalertrait.Setup, healthscope.Setup,
	} {
		if err := setup(mgr, args, logging.NewLogrLogger(log)); err != nil {
			log.Error(err, "cannot set up a controller")
			os.Exit(1)
		}
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "the manager stopped")
		os.Exit(1)
	}
}
