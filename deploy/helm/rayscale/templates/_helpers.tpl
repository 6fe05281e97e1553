{{/* The components, each with its key in the values. */}}
{{- define "rayscale.components" -}}
demand-collector: demandCollector
scaling-planner: scalingPlanner
k8s-actuator: k8sActuator
{{- end }}

{{/* A component's resource name: <release>-<component>. Call with (dict "root" $ "component" NAME). */}}
{{- define "rayscale.name" -}}
{{- printf "%s-%s" .root.Release.Name .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "rayscale.selectorLabels" -}}
app.kubernetes.io/name: {{ .component }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{- define "rayscale.labels" -}}
{{ include "rayscale.selectorLabels" . }}
app.kubernetes.io/part-of: rayscale
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end }}

{{- define "rayscale.image" -}}
{{- $image := .root.Values.image }}
{{- $tag := default .root.Chart.AppVersion $image.tag }}
{{- if eq $image.flavor "native" }}{{ $tag = printf "%s-native" $tag }}{{ end }}
{{- $digest := index $image.digests .component }}
{{- if $digest }}{{ printf "%s/%s:%s@%s" $image.registry .component $tag $digest }}{{ else }}{{ printf "%s/%s:%s" $image.registry .component $tag }}{{ end }}
{{- end }}

{{/* The Kubernetes API rules of a component, as deploy/README.md documents them. */}}
{{- define "rayscale.rules" -}}
{{- if eq .component "demand-collector" }}
- apiGroups: ["ray.io"]
  resources: ["rayclusters"]
  verbs: ["list", "watch"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["list", "watch"]
{{- else }}
- apiGroups: ["ray.io"]
  resources: ["rayclusters", "rayservices"]
  verbs: ["get", "patch"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["list"]
{{- end }}
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create"]
{{- end }}

{{/* The Secret with a component's own Kafka credentials. Call with (dict "root" $ "component" NAME). */}}
{{- define "rayscale.kafkaUserSecret" -}}
{{- (index .root.Values.kafka.userSecrets .component) | default (include "rayscale.name" .) }}
{{- end }}

{{/* The Kafka client settings every service gets, as the standard KAFKA_* variables Quarkus hands to Kafka. */}}
{{- define "rayscale.kafkaEnv" -}}
{{- $kafka := .root.Values.kafka }}
{{- if and (eq $kafka.securityProtocol "PLAINTEXT") (not $kafka.allowPlaintext) }}{{ fail "kafka.securityProtocol PLAINTEXT names no principal, so anyone who reaches the brokers can write rayscale.decisions and resize every cluster: use SASL_SSL or SSL, or set kafka.allowPlaintext=true on purpose" }}{{ end }}
- name: KAFKA_BOOTSTRAP_SERVERS
  value: {{ $kafka.bootstrapServers | quote }}
- name: KAFKA_SECURITY_PROTOCOL
  value: {{ $kafka.securityProtocol | quote }}
{{- if hasPrefix "SASL_" $kafka.securityProtocol }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $kafka.sasl.mechanism | quote }}
# The whole JAAS line from the service's own Secret: the chart pastes no credential into one.
- name: KAFKA_SASL_JAAS_CONFIG
  valueFrom:
    secretKeyRef: {name: {{ include "rayscale.kafkaUserSecret" . | quote }}, key: {{ $kafka.sasl.jaasConfigKey | quote }}}
{{- end }}
{{- if $kafka.tls.truststore.secretName }}
- name: KAFKA_SSL_TRUSTSTORE_LOCATION
  value: {{ printf "/etc/rayscale/kafka/truststore/%s" $kafka.tls.truststore.key | quote }}
- name: KAFKA_SSL_TRUSTSTORE_TYPE
  value: {{ $kafka.tls.truststore.type | quote }}
{{- if $kafka.tls.truststore.passwordKey }}
- name: KAFKA_SSL_TRUSTSTORE_PASSWORD
  valueFrom:
    secretKeyRef: {name: {{ $kafka.tls.truststore.secretName | quote }}, key: {{ $kafka.tls.truststore.passwordKey | quote }}}
{{- end }}
{{- end }}
{{- if eq $kafka.securityProtocol "SSL" }}
- name: KAFKA_SSL_KEYSTORE_LOCATION
  value: {{ printf "/etc/rayscale/kafka/keystore/%s" $kafka.tls.keystore.key | quote }}
- name: KAFKA_SSL_KEYSTORE_TYPE
  value: {{ $kafka.tls.keystore.type | quote }}
{{- if $kafka.tls.keystore.passwordKey }}
- name: KAFKA_SSL_KEYSTORE_PASSWORD
  valueFrom:
    secretKeyRef: {name: {{ include "rayscale.kafkaUserSecret" . | quote }}, key: {{ $kafka.tls.keystore.passwordKey | quote }}}
{{- end }}
{{- end }}
{{- end }}

{{/* The pod template of a component. Call with (dict "root" $ "component" NAME "values" COMPONENT_VALUES). */}}
{{- define "rayscale.podTemplate" -}}
{{- $root := .root }}
{{- $tls := $root.Values.kafka.tls }}
{{- $gcsTls := and $root.Values.gcs.tls.secretName (ne .component "scaling-planner") }}
{{- $gcsPrefix := ternary "RAYSCALE_COLLECTOR_GCS" "RAYSCALE_ACTUATOR_GCS" (eq .component "demand-collector") }}
metadata:
  labels:
    {{- include "rayscale.labels" . | nindent 4 }}
spec:
  serviceAccountName: {{ include "rayscale.name" . }}
  automountServiceAccountToken: {{ ne .component "scaling-planner" }}
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    runAsNonRoot: true
    seccompProfile:
      type: RuntimeDefault
  containers:
    - name: {{ .component }}
      image: {{ include "rayscale.image" . | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      ports:
        - name: http
          containerPort: 8080
      env:
        {{- include "rayscale.kafkaEnv" . | nindent 8 }}
        {{- if eq $root.Values.image.flavor "jvm" }}
        - name: JAVA_OPTS_APPEND
          value: {{ printf "-Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager -XX:SharedArchiveFile=/deployments/app-cds.jsa %s" .values.jvmOptions | quote }}
        {{- end }}
        - name: MALLOC_ARENA_MAX
          value: "2"
        {{- if eq .component "demand-collector" }}
        - name: RAYSCALE_COLLECTOR_SHARD_COUNT
          value: {{ .values.replicas | quote }}
        {{- with $root.Values.watch.namespaces }}
        - name: RAYSCALE_COLLECTOR_NAMESPACES
          value: {{ join "," . | quote }}
        {{- end }}
        {{- end }}
        {{- if ne .component "scaling-planner" }}
        {{- with $root.Values.gcs.addressOverrideNamespaces }}
        - name: {{ $gcsPrefix }}_ADDRESS_OVERRIDE_NAMESPACES
          value: {{ join "," . | quote }}
        {{- end }}
        {{- with $root.Values.gcs.tokenSecrets }}
        - name: {{ $gcsPrefix }}_TOKEN_SECRETS
          value: {{ join "," . | quote }}
        {{- end }}
        {{- end }}
        {{- if $gcsTls }}
        # Mutual TLS to GCSs that run Ray with RAY_USE_TLS: the client identity and CA from the chart's Secret, never from
        # anything a cluster's owner can edit.
        - name: {{ $gcsPrefix }}_TLS_CERT_FILE
          value: /etc/rayscale/gcs-tls/{{ $root.Values.gcs.tls.certKey }}
        - name: {{ $gcsPrefix }}_TLS_KEY_FILE
          value: /etc/rayscale/gcs-tls/{{ $root.Values.gcs.tls.keyKey }}
        - name: {{ $gcsPrefix }}_TLS_CA_FILE
          value: /etc/rayscale/gcs-tls/{{ $root.Values.gcs.tls.caKey }}
        {{- end }}
        {{- with .values.env }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      resources:
        {{- toYaml .values.resources | nindent 8 }}
      startupProbe:
        httpGet: {path: /q/health/started, port: http}
        periodSeconds: 2
        failureThreshold: 60
      readinessProbe:
        httpGet: {path: /q/health/ready, port: http}
        periodSeconds: 5
      livenessProbe:
        httpGet: {path: /q/health/live, port: http}
        periodSeconds: 10
      securityContext:
        runAsNonRoot: true
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities:
          drop: ["ALL"]
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        {{- if $tls.truststore.secretName }}
        - name: kafka-truststore
          mountPath: /etc/rayscale/kafka/truststore
          readOnly: true
        {{- end }}
        {{- if eq $root.Values.kafka.securityProtocol "SSL" }}
        - name: kafka-keystore
          mountPath: /etc/rayscale/kafka/keystore
          readOnly: true
        {{- end }}
        {{- if $gcsTls }}
        - name: gcs-tls
          mountPath: /etc/rayscale/gcs-tls
          readOnly: true
        {{- end }}
  volumes:
    # Quarkus and Vert.x write caches under /tmp; the root filesystem stays read-only.
    - name: tmp
      emptyDir:
        sizeLimit: 64Mi
    {{- if $tls.truststore.secretName }}
    - name: kafka-truststore
      secret:
        secretName: {{ $tls.truststore.secretName }}
    {{- end }}
    {{- if eq $root.Values.kafka.securityProtocol "SSL" }}
    - name: kafka-keystore
      secret:
        secretName: {{ include "rayscale.kafkaUserSecret" . }}
    {{- end }}
    {{- if $gcsTls }}
    - name: gcs-tls
      secret:
        secretName: {{ $root.Values.gcs.tls.secretName }}
    {{- end }}
  {{- with .values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
