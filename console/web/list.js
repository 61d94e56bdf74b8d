// Every ensemble of every cluster the console serves, kept current by each cluster's stream, with a filter. A person
// who may not list every namespace names the one to show; without one, each cluster's own namespace is shown.
import { api, ensembleHash, listen } from './api.js';
import { h, fill, notify } from './dom.js';
import { phaseBadge } from './words.js';

const COLUMNS = ['Ensemble', 'Cluster', 'Namespace', 'Phase', 'Members', 'Leader', 'Traits'];

function key(ensemble) {
  return `${ensemble.cluster}/${ensemble.namespace}/${ensemble.name}`;
}

function row(ensemble) {
  const traits = (ensemble.traits ?? []).map((trait) => `${trait.kind.replace('Zookeeper', '')} ${trait.phase ?? ''}`.trim()).join(', ');
  return h(
    'tr',
    { 'data-ensemble': key(ensemble) },
    h('th', { scope: 'row' }, h('a', { href: ensembleHash(ensemble) }, ensemble.name)),
    h('td', {}, ensemble.cluster),
    h('td', {}, ensemble.namespace),
    h('td', {}, phaseBadge(ensemble.phase)),
    h('td', { 'data-members': `${ensemble.members.ready}/${ensemble.members.desired}` }, `${ensemble.members.ready} of ${ensemble.members.desired} ready`),
    h('td', {}, ensemble.leader ?? '–'),
    h('td', {}, traits || '–'),
  );
}

function matches(ensemble, filter) {
  const words = [ensemble.name, ensemble.cluster, ensemble.namespace, ensemble.phase, ensemble.leader ?? ''].join(' ').toLowerCase();
  return filter.toLowerCase().split(/\s+/).every((word) => words.includes(word));
}

function namespaceForm(namespace) {
  const input = h('input', { id: 'namespace', type: 'text', value: namespace, placeholder: 'every namespace you may list' });
  const form = h('form', { class: 'filter' }, h('label', { for: 'namespace' }, 'Namespace'), ' ', input, ' ', h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = input.value.trim();
    location.hash = wanted === '' ? '#/' : `#/?namespace=${encodeURIComponent(wanted)}`;
  });
  return form;
}

export function listView(main, namespace) {
  const scope = namespace === '' ? '' : `?namespace=${encodeURIComponent(namespace)}`;
  const problems = h('div', { role: 'alert' });
  const ensembles = new Map();
  const body = h('tbody');
  const filter = h('input', { id: 'filter', type: 'search', placeholder: 'name, namespace, phase…' });
  const render = () => {
    const shown = [...ensembles.values()].filter((ensemble) => matches(ensemble, filter.value)).sort((a, b) => key(a).localeCompare(key(b)));
    fill(body, shown.length === 0 ? h('tr', {}, h('td', { colspan: COLUMNS.length }, 'No ensemble here yet.')) : shown.map(row));
  };
  filter.addEventListener('input', render);
  fill(
    main,
    h('h1', {}, 'Ensembles'),
    namespaceForm(namespace),
    h('p', { class: 'filter' }, h('label', { for: 'filter' }, 'Filter'), ' ', filter),
    problems,
    h('table', {}, h('caption', {}, 'ZooKeeper ensembles of every cluster, live'), h('thead', {}, h('tr', {}, COLUMNS.map((column) => h('th', { scope: 'col' }, column)))), body),
  );
  const sources = [];
  const load = async (cluster) => {
    const list = await api('GET', `/clusters/${encodeURIComponent(cluster)}/zookeepers${scope}`);
    for (const [name, ensemble] of ensembles) if (ensemble.cluster === cluster) ensembles.delete(name);
    for (const ensemble of list.items) ensembles.set(key(ensemble), ensemble);
    render();
  };
  const follow = (cluster) => {
    // The stream carries each ensemble's state; its traits come with the list, read again when ensembles come or go.
    const change = (state) => {
      ensembles.set(key(state), { traits: ensembles.get(key(state))?.traits ?? [], ...state });
      render();
    };
    sources.push(
      listen(`/clusters/${encodeURIComponent(cluster)}/stream${scope}`, {
        ADDED: (state) => (ensembles.has(key(state)) ? change(state) : load(cluster).catch((error) => notify(error.message))),
        MODIFIED: change,
        DELETED: (state) => {
          ensembles.delete(key(state));
          render();
        },
      }),
    );
  };
  api('GET', '/clusters')
    .then(async ({ clusters }) => {
      for (const cluster of clusters) {
        try {
          await load(cluster.name);
          follow(cluster.name);
        } catch (error) {
          problems.append(h('p', { class: 'error' }, `${cluster.name}: ${error.message}`));
        }
      }
    })
    .catch((error) => notify(error.message));
  return () => sources.forEach((source) => source.close());
}
