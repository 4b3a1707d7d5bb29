{{/*
What each app is, fixed by the code (apps/<name>/src/main.ts, libs/runtime/src/config.ts), not by values:
its process name (the image argument), the prefix of its *_RPC_HOST/_RPC_PORT/_OPS_PORT variables, which secrets it
reads, and the apps whose RPC it calls (its ServiceClients; the NetworkPolicies let exactly those callers and the
gateway reach a service's RPC port). Every app signs or checks RPC under a key derived from SECRET_HASH_KEY.
Keys are the keys of .Values.apps.
*/}}
{{- define "pp.catalogue" -}}
gateway: {name: gateway, env: GATEWAY, secretHashKey: true, bootstrap: false, calls: [identity, accounts, quoting, payments, webhookDispatcher, walletAuth, cards, agents]}
identity: {name: identity, env: IDENTITY, secretHashKey: true, bootstrap: true, calls: [walletAuth]}
accounts: {name: accounts, env: ACCOUNTS, secretHashKey: true, bootstrap: false, calls: [quoting, walletAuth]}
quoting: {name: quoting, env: QUOTING, secretHashKey: true, bootstrap: false, calls: [accounts, walletAuth]}
payments: {name: payments, env: PAYMENTS, secretHashKey: true, bootstrap: false, calls: [accounts, quoting]}
webhookDispatcher: {name: webhook-dispatcher, env: WEBHOOK_DISPATCHER, secretHashKey: true, bootstrap: false, calls: [identity, accounts]}
walletAuth: {name: wallet-auth, env: WALLET_AUTH, secretHashKey: true, bootstrap: false, calls: [identity, accounts, cards]}
cards: {name: cards, env: CARDS, secretHashKey: true, bootstrap: false, calls: [identity, accounts, walletAuth]}
agents: {name: agents, env: AGENTS, secretHashKey: true, bootstrap: false, calls: [identity, accounts, quoting, payments]}
{{- end }}

{{- define "pp.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name, short enough that "<fullname>-webhook-dispatcher" is a valid 63-character name. */}}
{{- define "pp.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 44 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 44 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 44 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "pp.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "pp.selectorLabels" -}}
app.kubernetes.io/name: {{ include "pp.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "pp.labels" -}}
helm.sh/chart: {{ include "pp.chart" . }}
{{ include "pp.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: payments-platform
{{- end }}

{{/* Labels of one app's objects; call with (dict "root" $ "name" "<app name>"). */}}
{{- define "pp.appLabels" -}}
{{ include "pp.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "pp.appSelectorLabels" -}}
{{ include "pp.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{/* Name of one app's Deployment, Service, HPA and PDB: (dict "root" $ "name" "<app name>"). */}}
{{- define "pp.appFullname" -}}
{{- printf "%s-%s" (include "pp.fullname" .root) .name }}
{{- end }}

{{/* The settings of one app: appDefaults overridden key by key by apps.<key>; call with (dict "root" $ "key" "<key>"). */}}
{{- define "pp.appSettings" -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.appDefaults) (deepCopy (index .root.Values.apps .key))) }}
{{- end }}

{{- define "pp.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "pp.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "pp.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* DATABASE_URL from the existing Secret: every app and the migration Job. */}}
{{- define "pp.databaseUrlEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.urlKey }}
{{- end }}
