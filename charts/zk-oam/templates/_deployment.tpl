{{/*
A controller's Deployment and metrics Service, or the manager's: (dict "name" <controller or manager> "values" <its
values> "root" $ "nats" <whether it reads NATS> "controllers" <CONTROLLERS, the manager's alone>).
*/}}
{{- define "zk-oam.deployment" -}}
{{- $root := .root }}
{{- $values := .values }}
{{- $fullName := printf "%s-%s" $root.Release.Name .name }}
{{- $labels := include "zk-oam.labels" (dict "name" .name "root" $root) }}
{{- $pod := dict "name" $fullName "values" $values "root" $root }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullName }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  replicas: {{ $values.replicas }}
  selector:
    matchLabels:
      app.kubernetes.io/name: {{ $fullName }}
  template:
    metadata:
      {{- include "zk-oam.podMetadata" $pod | nindent 6 }}
    spec:
      serviceAccountName: {{ $fullName }}
      {{- with include "zk-oam.podSpec" $pod }}{{ . | nindent 6 }}{{ end }}
      containers:
        - name: controller
          {{- include "zk-oam.container" $pod | nindent 10 }}
          env:
            {{- with .controllers }}
            # Which controllers this process runs: those enabled.
            - name: CONTROLLERS
              value: {{ . }}
            {{- end }}
            - name: SERVICE_ACCOUNT_DIR
              value: /var/run/secrets/kubernetes.io/serviceaccount
            {{- if .controllers }}
            # Each controller acts as its own ServiceAccount, <release>-<controller>: the manager asks for its token.
            - name: CONTROLLER_SERVICE_ACCOUNT_PREFIX
              value: {{ $root.Release.Name }}-
            - name: CONTROLLER_SERVICE_ACCOUNT_NAMESPACE
              valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
            - name: CONTROLLER_TOKEN_DIR
              value: /var/run/zk-oam/tokens
            {{- end }}
            - name: POD_NAME
              valueFrom: { fieldRef: { fieldPath: metadata.name } }
            - name: LEADER_ELECTION_NAMESPACE
              valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
            - name: METRICS_PORT
              value: {{ $root.Values.metrics.port | quote }}
            - name: HEALTH_HOST
              value: 0.0.0.0
            - name: LOG_LEVEL
              value: {{ $values.logLevel }}
            - name: NODE_OPTIONS
              value: --max-old-space-size={{ include "zk-oam.heapMiB" $values }} --max-semi-space-size=8
            - name: MALLOC_ARENA_MAX
              value: "2"
            {{- $controllers := splitList "," (.controllers | default "") }}
            {{- if or (has .name (list "backup" "workload")) (has "backup" $controllers) (has "workload" $controllers) }}
            # The backup image, whose volume server a PersistentVolumeClaim target's Job runs (a backup's, a restore's).
            - name: BACKUP_IMAGE
              value: {{ include "zk-oam.imageOf" (dict "values" $root.Values.backup "root" $root) }}
            {{- end }}
            {{- with $root.Values.watchNamespaces }}
            - name: WATCH_NAMESPACE
              value: {{ join "," . }}
            {{- end }}
            {{- if .nats }}
            - name: NATS_URL
              valueFrom: { secretKeyRef: { name: {{ include "zk-oam.natsSecret" $root }}, key: url, optional: true } }
            - name: NATS_USER
              valueFrom: { secretKeyRef: { name: {{ include "zk-oam.natsSecret" $root }}, key: user, optional: true } }
            - name: NATS_PASSWORD
              valueFrom: { secretKeyRef: { name: {{ include "zk-oam.natsSecret" $root }}, key: password, optional: true } }
            {{- end }}
            {{- with $values.extraEnv }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          ports:
            - { name: http, containerPort: {{ $root.Values.metrics.port }} }
          livenessProbe:
            httpGet: { path: /healthz, port: http }
          readinessProbe:
            httpGet: { path: /readyz, port: http }
            # The first probe comes as the process starts, before it listens: the next one, 10 s later at Kubernetes'
            # default, kept every new pod out of a rollout that long.
            periodSeconds: 5
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          {{- if .controllers }}
          volumeMounts:
            - { name: controller-tokens, mountPath: /var/run/zk-oam/tokens }
      volumes:
        # The controllers' tokens: in memory, never on the node's disk, gone with the pod.
        - name: controller-tokens
          emptyDir: { medium: Memory, sizeLimit: 1Mi }
          {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullName }}-metrics
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- $labels | nindent 4 }}
spec:
  selector:
    app.kubernetes.io/name: {{ $fullName }}
  ports:
    - { name: http-metrics, port: {{ $root.Values.metrics.port }}, targetPort: http }
{{- end -}}
