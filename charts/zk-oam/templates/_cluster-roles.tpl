{{/* Each controller's ClusterRoles, as deploy/<name>/cluster-role.yaml has them (the comments there say why each rule). */}}
{{- define "zk-oam.clusterRoles.workload" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-workload
  labels:
    {{- include "zk-oam.labels" (dict "name" "workload" "root" .) | nindent 4 }}
rules:
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, list, watch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads/status]
    verbs: [get, patch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads/finalizers]
    verbs: [update]
  - apiGroups: [apps]
    resources: [statefulsets]
    verbs: [get, list, watch, create, patch]
  - apiGroups: [""]
    resources: [configmaps, services]
    verbs: [get, list, watch, create, patch]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get, list, watch, create, patch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
  - apiGroups: [policy]
    resources: [poddisruptionbudgets]
    verbs: [get, list, watch, create, patch]
  - apiGroups: [monitoring.coreos.com]
    resources: [servicemonitors, prometheusrules]
    verbs: [get, create, patch, delete]
  # The Certificate it requests from cert-manager when a workload names an issuer (spec.tls.certificates.issuerRef).
  - apiGroups: [cert-manager.io]
    resources: [certificates]
    verbs: [get, create, patch]
  - apiGroups: [batch]
    resources: [jobs]
    verbs: [list, create, delete]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
{{- end }}
{{- define "zk-oam.clusterRoles.scale" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-scale
  labels:
    {{- include "zk-oam.labels" (dict "name" "scale" "root" .) | nindent 4 }}
rules:
  - apiGroups: [scale.zookeeper.zkoam.dev]
    resources: [zookeeperscales]
    verbs: [get, list, watch, patch]
  - apiGroups: [scale.zookeeper.zkoam.dev]
    resources: [zookeeperscales/status]
    verbs: [get, patch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, list, watch, patch]
  - apiGroups: [apps]
    resources: [statefulsets]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [persistentvolumeclaims]
    verbs: [get, list, watch, delete]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
{{- end }}
{{- define "zk-oam.clusterRoles.rolling" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-rolling
  labels:
    {{- include "zk-oam.labels" (dict "name" "rolling" "root" .) | nindent 4 }}
rules:
  - apiGroups: [rolling.zookeeper.zkoam.dev]
    resources: [zookeeperrollings]
    verbs: [get, list, watch, patch]
  - apiGroups: [rolling.zookeeper.zkoam.dev]
    resources: [zookeeperrollings/status]
    verbs: [get, patch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, list, watch, patch]
  - apiGroups: [apps]
    resources: [statefulsets]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch, delete]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [get, create, update]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
{{- end }}
{{- define "zk-oam.clusterRoles.appconfig" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-appconfig
  labels:
    {{- include "zk-oam.labels" (dict "name" "appconfig" "root" .) | nindent 4 }}
aggregationRule:
  clusterRoleSelectors:
    - matchLabels:
        oam.zkoam.dev/aggregate-to-appconfig: "true"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-appconfig-oam
  labels:
    {{- include "zk-oam.labels" (dict "name" "appconfig" "root" .) | nindent 4 }}
    oam.zkoam.dev/aggregate-to-appconfig: "true"
rules:
  - apiGroups: [core.oam.dev]
    resources: [applicationconfigurations, components, workloaddefinitions, traitdefinitions, scopedefinitions]
    verbs: [list, watch]
  - apiGroups: [core.oam.dev]
    resources: [applicationconfigurations]
    verbs: [get, patch]
  - apiGroups: [core.oam.dev]
    resources: [applicationconfigurations/status]
    verbs: [patch]
  - apiGroups: [core.oam.dev]
    resources: [applicationconfigurations/finalizers]
    verbs: [update]
  - apiGroups: [apps]
    resources: [controllerrevisions]
    verbs: [list, watch, create, delete]
  - apiGroups: [core.oam.dev]
    resources: [components/status]
    verbs: [patch]
  - apiGroups: [core.oam.dev]
    resources: [components/finalizers]
    verbs: [update]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-appconfig-zookeeper
  labels:
    {{- include "zk-oam.labels" (dict "name" "appconfig" "root" .) | nindent 4 }}
    oam.zkoam.dev/aggregate-to-appconfig: "true"
rules:
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, create, patch, delete]
  - apiGroups: [scale.zookeeper.zkoam.dev]
    resources: [zookeeperscales]
    verbs: [get, create, patch, delete]
  - apiGroups: [rolling.zookeeper.zkoam.dev]
    resources: [zookeeperrollings]
    verbs: [get, create, patch, delete]
  - apiGroups: [znode.zookeeper.zkoam.dev]
    resources: [zookeeperznodes]
    verbs: [get, create, patch, delete]
  - apiGroups: [backup.zookeeper.zkoam.dev]
    resources: [zookeeperbackups]
    verbs: [get, create, patch, delete]
{{- if .Values.watchNamespaces }}
---
# The OAM definitions are cluster-scoped: a RoleBinding cannot grant reading them, so this read stays cluster-wide.
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-appconfig-definitions
  labels:
    {{- include "zk-oam.labels" (dict "name" "appconfig" "root" .) | nindent 4 }}
rules:
  - apiGroups: [core.oam.dev]
    resources: [workloaddefinitions, traitdefinitions, scopedefinitions]
    verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ .Release.Name }}-appconfig-definitions
  labels:
    {{- include "zk-oam.labels" (dict "name" "appconfig" "root" .) | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ .Release.Name }}-appconfig-definitions
subjects:
  - kind: ServiceAccount
    name: {{ .Release.Name }}-appconfig
    namespace: {{ .Release.Namespace }}
{{- end }}
{{- end }}
{{- define "zk-oam.clusterRoles.znode" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-znode
  labels:
    {{- include "zk-oam.labels" (dict "name" "znode" "root" .) | nindent 4 }}
rules:
  - apiGroups: [znode.zookeeper.zkoam.dev]
    resources: [zookeeperznodes]
    verbs: [get, list, watch, patch]
  - apiGroups: [znode.zookeeper.zkoam.dev]
    resources: [zookeeperznodes/status]
    verbs: [get, patch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [namespaces]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, create, patch]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get, create, patch]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
{{- if .Values.watchNamespaces }}
---
# Namespaces are cluster-scoped: a RoleBinding cannot grant reading their labels (whom a workload's
# spec.znodes.namespaceSelector admits), so this read stays cluster-wide.
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-znode-namespaces
  labels:
    {{- include "zk-oam.labels" (dict "name" "znode" "root" .) | nindent 4 }}
rules:
  - apiGroups: [""]
    resources: [namespaces]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: {{ .Release.Name }}-znode-namespaces
  labels:
    {{- include "zk-oam.labels" (dict "name" "znode" "root" .) | nindent 4 }}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: {{ .Release.Name }}-znode-namespaces
subjects:
  - kind: ServiceAccount
    name: {{ .Release.Name }}-znode
    namespace: {{ .Release.Namespace }}
{{- end }}
{{- end }}
{{- define "zk-oam.clusterRoles.backup" }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ .Release.Name }}-backup
  labels:
    {{- include "zk-oam.labels" (dict "name" "backup" "root" .) | nindent 4 }}
rules:
  - apiGroups: [backup.zookeeper.zkoam.dev]
    resources: [zookeeperbackups]
    verbs: [get, list, watch]
  - apiGroups: [backup.zookeeper.zkoam.dev]
    resources: [zookeeperbackups/status]
    verbs: [get, patch]
  - apiGroups: [workload.zookeeper.zkoam.dev]
    resources: [zookeeperworkloads]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [secrets]
    verbs: [get]
  - apiGroups: [batch]
    resources: [jobs]
    verbs: [list, create, delete]
  - apiGroups: [events.k8s.io]
    resources: [events]
    verbs: [create, patch]
{{- end }}
