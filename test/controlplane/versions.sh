# What the bed's Kubernetes binaries are built at, for the scripts that build them from this module: build.sh here (the
# control plane) and test/network/build.sh (kube-proxy, which must match it). Source it after scripts/cache-dir.sh.
#   k8s_version, etcd_version   the versions, as go.mod requires them
#   k8s_ldflags                 stripped, with the version stamped as Kubernetes' release build stamps it (what
#                               `--version` and the apiserver's /version answer)
#   controlplane_out            where build.sh caches the control plane, once per version
k8s_version=v1.36.3
etcd_version=v3.6.8
k8s_minor=${k8s_version#v1.}
k8s_minor=${k8s_minor%%.*}
k8s_ldflags="-s -w \
 -X k8s.io/component-base/version.gitVersion=$k8s_version \
 -X k8s.io/component-base/version.gitMajor=1 \
 -X k8s.io/component-base/version.gitMinor=$k8s_minor \
 -X k8s.io/component-base/version.gitTreeState=clean \
 -X k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z"
controlplane_out="$zkoam_cache_dir/controlplane/k8s-$k8s_version-etcd-$etcd_version"
