// The create form, generated from the JSON Schema of the create request in the console's OpenAPI document (made from
// the same zod schemas as the CRD): one field per setting, the defaults shown, nested settings folded. Only what the
// user fills in is sent; the API server applies the CRD's defaults to the rest. A 400 puts each message at its field.
import { api, ApiError, ensembleHash, ensemblesPath } from './api.js';
import { fill, h, notify } from './dom.js';

const CREATE_PATH = '/api/v1/clusters/{cluster}/namespaces/{namespace}/zookeepers';

function fieldId(path) {
  return `field-${path.replaceAll('.', '-')}`;
}

function hintOf(schema) {
  const shown = schema.default !== undefined && typeof schema.default !== 'object' ? ` Default: ${schema.default}.` : '';
  return `${schema.description ?? ''}${shown}`.trim();
}

/** The input for one scalar setting; `data-kind` says how its text becomes a value. */
function input(schema, path) {
  const common = { id: fieldId(path), name: path, 'data-path': path, 'aria-describedby': `${fieldId(path)}-hint ${fieldId(path)}-error` };
  if (schema.enum !== undefined) {
    return h('select', { ...common, 'data-kind': 'text' }, h('option', { value: '' }, schema.default === undefined ? '(not set)' : `(default: ${schema.default})`), schema.enum.map((value) => h('option', { value }, value)));
  }
  if (schema.type === 'boolean') {
    return h('select', { ...common, 'data-kind': 'boolean' }, h('option', { value: '' }, schema.default === undefined ? '(not set)' : `(default: ${schema.default})`), h('option', { value: 'true' }, 'true'), h('option', { value: 'false' }, 'false'));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    return h('input', { ...common, type: 'number', 'data-kind': 'number', min: schema.minimum, max: schema.maximum, placeholder: schema.default });
  }
  if (schema.type === 'string' || schema.anyOf !== undefined) {
    return h('input', { ...common, type: 'text', 'data-kind': 'text', placeholder: typeof schema.default === 'object' ? undefined : schema.default });
  }
  return h('textarea', { ...common, rows: 3, 'data-kind': 'json', placeholder: 'JSON' });
}

function field(name, schema, path, depth) {
  if (schema.type === 'object' && schema.properties !== undefined) {
    const children = Object.entries(schema.properties).map(([child, childSchema]) => field(child, childSchema, `${path}.${child}`, depth + 1));
    // Folded at the top level: the summary shows the name, the legend stays for screen readers.
    const group = h('fieldset', {}, h('legend', { class: depth === 0 ? 'sr-only' : undefined }, name), schema.description ? h('p', { class: 'hint' }, schema.description) : undefined, children);
    return depth === 0 ? h('details', {}, h('summary', {}, name), group) : group;
  }
  return h(
    'div',
    { class: 'field' },
    h('label', { for: fieldId(path) }, name),
    input(schema, path),
    h('p', { id: `${fieldId(path)}-hint`, class: 'hint' }, hintOf(schema)),
    h('p', { id: `${fieldId(path)}-error`, class: 'error' }),
  );
}

function valueOf(element) {
  const text = element.value.trim();
  if (text === '') return undefined;
  if (element.dataset.kind === 'number') return Number(text);
  if (element.dataset.kind === 'boolean') return text === 'true';
  if (element.dataset.kind === 'json') return JSON.parse(text);
  return text;
}

/** The request body from the filled-in fields: `spec.storage.size` = 2Gi becomes {spec: {storage: {size: '2Gi'}}}. */
function requestBody(form) {
  const body = {};
  for (const element of form.querySelectorAll('[data-path]')) {
    const value = valueOf(element);
    if (value === undefined) continue;
    const names = element.dataset.path.split('.');
    const leaf = names.pop();
    let node = body;
    for (const name of names) node = node[name] ??= {};
    node[leaf] = value;
  }
  return body;
}

function showProblems(form, error) {
  for (const element of form.querySelectorAll('[data-path]')) element.removeAttribute('aria-invalid');
  for (const message of form.querySelectorAll('.error')) fill(message);
  for (const { path, problem } of error.fields) {
    const element = form.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (element === null) continue;
    element.setAttribute('aria-invalid', 'true');
    fill(document.getElementById(`${element.id}-error`), problem);
  }
  const first = form.querySelector('[aria-invalid="true"]');
  if (first !== null) {
    first.closest('details')?.setAttribute('open', '');
    first.focus();
  }
}

export function createView(main) {
  fill(main, h('h1', {}, 'Create an ensemble'), h('p', {}, 'Reading the schema…'));
  Promise.all([fetch('/api/v1/openapi.json').then((response) => response.json()), api('GET', '/clusters')])
    .then(([document, { clusters }]) => {
      const schema = document.paths[CREATE_PATH].post.requestBody.content['application/json'].schema;
      const cluster = h('select', { id: 'cluster' }, clusters.map((one) => h('option', { value: one.name, 'data-namespace': one.namespace }, one.name)));
      const namespace = h('input', { id: 'namespace', type: 'text', required: true, value: clusters[0]?.namespace ?? 'default' });
      cluster.addEventListener('change', () => (namespace.value = cluster.selectedOptions[0].dataset.namespace));
      const status = h('p', { role: 'alert', class: 'error' });
      const form = h(
        'form',
        { class: 'create', novalidate: true },
        h('div', { class: 'field' }, h('label', { for: 'cluster' }, 'Cluster'), cluster),
        h('div', { class: 'field' }, h('label', { for: 'namespace' }, 'Namespace'), namespace),
        field('name', schema.properties.metadata.properties.name, 'metadata.name', 1),
        Object.entries(schema.properties.spec.properties).map(([name, setting]) => field(name, setting, `spec.${name}`, 0)),
        status,
        h('button', { type: 'submit', class: 'primary' }, 'Create'),
      );
      form.querySelector('[data-path="metadata.name"]').required = true;
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        fill(status);
        try {
          const target = { cluster: cluster.value, namespace: namespace.value.trim(), name: form.querySelector('[data-path="metadata.name"]').value.trim() };
          const body = requestBody(form);
          await api('POST', ensemblesPath(target), { metadata: body.metadata ?? {}, spec: body.spec ?? {} });
          notify(`Created ${target.name}.`);
          location.hash = ensembleHash(target);
        } catch (error) {
          if (error instanceof ApiError) showProblems(form, error);
          fill(status, error.message);
        }
      });
      fill(main, h('h1', {}, 'Create an ensemble'), form);
    })
    .catch((error) => notify(error.message));
  return () => {};
}
