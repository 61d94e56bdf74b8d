{{/*
The four controllers, in install order, and what differs between them beyond their values. The rolling controller's
ClusterRole grants Leases (its disruption locks) everywhere, its leader Lease included; bound in some namespaces only
(watchNamespaces), every controller needs the leader-election Role.
*/}}
{{- define "zk-oam.controllers" -}}
workload: { nats: true, leaderElectionRole: true }
scale: { nats: true, leaderElectionRole: true }
rolling: { nats: true, leaderElectionRole: false }
appconfig: { nats: false, leaderElectionRole: true }
{{- end -}}

{{- define "zk-oam.names" -}}
[workload, scale, rolling, appconfig]
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
The fields of a deployable's container that platform teams set, its own values over global's:
(dict "values" <its values> "root" $).
*/}}
{{- define "zk-oam.container" -}}
{{- $global := .root.Values.global -}}
{{- $image := .values.image -}}
{{- $repository := $image.repository -}}
{{- with $global.image.registry }}{{ $repository = printf "%s/%s" . $repository }}{{ end -}}
{{- $container := dict "image" (printf "%s:%s" $repository ($image.tag | default .root.Chart.AppVersion)) -}}
{{- with $image.pullPolicy | default $global.image.pullPolicy }}{{ $_ := set $container "imagePullPolicy" . }}{{ end -}}
{{- toYaml $container -}}
{{- end -}}

{{/* The fields of a deployable's pod spec that platform teams set, as the container's; empty when none is. */}}
{{- define "zk-oam.podSpec" -}}
{{- $global := .root.Values.global -}}
{{- $spec := dict -}}
{{- with $global.imagePullSecrets }}{{ $_ := set $spec "imagePullSecrets" . }}{{ end -}}
{{- with $spec }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* The Node heap: half the container's memory limit (given in Mi). */}}
{{- define "zk-oam.heapMiB" -}}
{{- div (trimSuffix "Mi" .resources.limits.memory | atoi) 2 -}}
{{- end -}}

{{/* The Secret the controllers read NATS' url, user and password from. */}}
{{- define "zk-oam.natsSecret" -}}
{{- if .Values.nats.install }}{{ .Release.Name }}-nats{{ else }}{{ .Values.nats.existingSecret }}{{ end -}}
{{- end -}}
