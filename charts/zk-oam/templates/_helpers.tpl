{{/*
The controllers, in install order, and what differs between them beyond their values. The rolling controller's
ClusterRole grants Leases (its disruption locks) everywhere, its leader Lease included; bound in some namespaces only
(watchNamespaces), every controller needs the leader-election Role.
*/}}
{{- define "zk-oam.controllers" -}}
workload: { nats: true, leaderElectionRole: true }
scale: { nats: true, leaderElectionRole: true }
rolling: { nats: true, leaderElectionRole: false }
appconfig: { nats: false, leaderElectionRole: true }
znode: { nats: false, leaderElectionRole: true }
backup: { nats: false, leaderElectionRole: true }
{{- end -}}

{{- define "zk-oam.names" -}}
[workload, scale, rolling, appconfig, znode, backup]
{{- end -}}

{{/* The controllers enabled, in install order. */}}
{{- define "zk-oam.enabled" -}}
{{- $enabled := list -}}
{{- range $name := include "zk-oam.names" . | fromYamlArray -}}
{{- if (index $.Values $name).enabled }}{{ $enabled = append $enabled $name }}{{ end -}}
{{- end -}}
{{- toYaml $enabled -}}
{{- end -}}

{{/*
Objects are named <release>-<controller>: with the release zk-oam, the names deploy/ uses. The name label selects a
controller's pods, so two releases never select each other's.
*/}}
{{- define "zk-oam.selectorLabels" -}}
app.kubernetes.io/name: {{ . }}
app.kubernetes.io/part-of: zk-oam
{{- end -}}

{{/* Labels of every object of one controller: (dict "name" <controller> "root" $). */}}
{{- define "zk-oam.labels" -}}
{{ include "zk-oam.selectorLabels" (printf "%s-%s" .root.Release.Name .name) }}
{{ include "zk-oam.releaseLabels" .root }}
{{- end -}}

{{/* What Helm adds to every object; the rest of the labels are deploy/'s. */}}
{{- define "zk-oam.releaseLabels" -}}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/*
What platform teams set on a deployable's pods (values.yaml's global says how a deployable's own values override
global's), each helper given (dict "name" <its selector name> "values" <its values> "root" $).
*/}}

{{/* The pod template's metadata: the selector labels win over podLabels. */}}
{{- define "zk-oam.podMetadata" -}}
{{- $global := .root.Values.global -}}
{{- $labels := merge (include "zk-oam.selectorLabels" .name | fromYaml) (deepCopy .values.podLabels) $global.podLabels -}}
{{- $metadata := dict "labels" $labels -}}
{{- with merge (deepCopy .values.podAnnotations) $global.podAnnotations }}{{ $_ := set $metadata "annotations" . }}{{ end -}}
{{- toYaml $metadata -}}
{{- end -}}

{{/* The pod spec's fields; empty when none is set. */}}
{{- define "zk-oam.podSpec" -}}
{{- $global := .root.Values.global -}}
{{- $own := .values -}}
{{- $spec := dict -}}
{{- with $global.imagePullSecrets }}{{ $_ := set $spec "imagePullSecrets" . }}{{ end -}}
{{- with $own.priorityClassName | default $global.priorityClassName }}{{ $_ := set $spec "priorityClassName" . }}{{ end -}}
{{- with merge (deepCopy $own.nodeSelector) $global.nodeSelector }}{{ $_ := set $spec "nodeSelector" . }}{{ end -}}
{{- with $own.tolerations | default $global.tolerations }}{{ $_ := set $spec "tolerations" . }}{{ end -}}
{{- with $own.affinity | default $global.affinity }}{{ $_ := set $spec "affinity" . }}{{ end -}}
{{- with merge (deepCopy $own.podSecurityContext) $global.podSecurityContext }}{{ $_ := set $spec "securityContext" . }}{{ end -}}
{{- with $spec }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* The container's image, pull policy and securityContext. */}}
{{- define "zk-oam.container" -}}
{{- $global := .root.Values.global -}}
{{- $image := .values.image -}}
{{- $repository := $image.repository -}}
{{- with $global.image.registry }}{{ $repository = printf "%s/%s" . $repository }}{{ end -}}
{{- $container := dict "image" (printf "%s:%s" $repository ($image.tag | default .root.Chart.AppVersion)) -}}
{{- with $image.pullPolicy | default $global.image.pullPolicy }}{{ $_ := set $container "imagePullPolicy" . }}{{ end -}}
{{- with merge (deepCopy .values.securityContext) $global.securityContext }}{{ $_ := set $container "securityContext" . }}{{ end -}}
{{- toYaml $container -}}
{{- end -}}

{{/* A CRD's annotations (templates/crds/, generated): with crds.keep, uninstalling leaves it and every object of its kind. */}}
{{- define "zk-oam.crdAnnotations" -}}
{{- if .Values.crds.keep -}}
annotations:
  helm.sh/resource-policy: keep
{{- end -}}
{{- end -}}

{{/* The Node heap: half the container's memory limit (given in Mi). */}}
{{- define "zk-oam.heapMiB" -}}
{{- div (trimSuffix "Mi" .resources.limits.memory | atoi) 2 -}}
{{- end -}}

{{/* The Secret the controllers read NATS' url, user and password from. */}}
{{- define "zk-oam.natsSecret" -}}
{{- if .Values.nats.install }}{{ .Release.Name }}-nats{{ else }}{{ .Values.nats.existingSecret }}{{ end -}}
{{- end -}}
