// One ensemble: its members as a ring and a table (with each member's zxid lag), its conditions in plain words, its
// traits, a timeline of Kubernetes Events and NATS facts, and the two safe actions (scale, restart), each confirmed
// first. Kept current by the ensemble's stream without reloading; the lags, which the stream does not carry (they are
// not in the status), are asked for every few seconds while the page is visible.
import { api, ensemblePath, listen } from './api.js';
import { clock, fill, h, notify } from './dom.js';
import { memberRing } from './ring.js';
import { conditionSentence, eventLine, factLine, lagSource, lagText, phaseBadge } from './words.js';

const TIMELINE_LENGTH = 100;
const LAG_POLL_MS = 5000;

function memberTable(members, zxid) {
  return h(
    'table',
    { class: 'members' },
    h('caption', {}, 'Members', h('span', { class: 'hint lag-source' }, ` – ${lagSource(zxid)}`)),
    h('thead', {}, h('tr', {}, ['Pod', 'Id', 'Role', 'Synced', 'Voting', 'Zxid lag'].map((column) => h('th', { scope: 'col' }, column)))),
    h(
      'tbody',
      {},
      members.map((member) =>
        h(
          'tr',
          { 'data-pod': member.pod, 'data-role': member.role },
          h('th', { scope: 'row' }, member.pod),
          h('td', {}, member.myid ?? ''),
          h('td', {}, member.role),
          h('td', {}, member.synced ? 'yes' : 'no'),
          h('td', {}, member.voting === false ? 'no (observer)' : 'yes'),
          h('td', { class: 'zxid-lag', title: member.zxidLag?.reason ?? member.zxid ?? '' }, lagText(member.zxidLag)),
        ),
      ),
    ),
  );
}

function timelineItem(line) {
  return h(
    'li',
    { class: `line ${line.kind}`, 'data-title': line.title },
    h('time', { datetime: line.time ?? '' }, clock(line.time)),
    ' ',
    h('strong', {}, line.title),
    ' ',
    line.text,
    line.source ? h('span', { class: 'source' }, ` – ${line.source}`) : undefined,
  );
}

/** A modal question: resolves true when confirmed. The dialog keeps keyboard focus inside and Escape cancels. */
function confirmAction(title, explanation, action) {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { 'aria-labelledby': 'confirm-title' },
      h('h2', { id: 'confirm-title' }, title),
      h('p', {}, explanation),
      h(
        'form',
        { method: 'dialog' },
        h('button', { value: 'cancel', type: 'submit' }, 'Cancel'),
        ' ',
        h('button', { value: 'confirm', type: 'submit', class: 'primary' }, action),
      ),
    );
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function ensembleView(main, target) {
  const path = ensemblePath(target);
  const timeline = [];
  const parts = {
    heading: h('div'),
    ring: h('div', { class: 'ring-box' }),
    members: h('div'),
    conditions: h('ul', { class: 'conditions' }),
    traits: h('ul', { class: 'traits' }),
    timeline: h('ol', { class: 'timeline', 'aria-live': 'polite' }),
  };
  const replicas = h('input', { id: 'replicas', type: 'number', min: 1, max: 255, required: true });
  // The latest zxid lags by pod (the info's, then each poll's), drawn over the members the stream sends.
  const lags = { zxid: undefined, byPod: new Map() };
  let shown;
  const showMembers = () => {
    const members = shown.memberStatus.map((member) => ({ ...member, ...lags.byPod.get(member.pod) }));
    fill(parts.ring, memberRing(members));
    fill(parts.members, memberTable(members, lags.zxid));
  };
  const keepLags = (answer) => {
    lags.zxid = answer.zxid;
    lags.byPod = new Map(answer.members.map((member) => [member.pod, { zxid: member.zxid, zxidLag: member.zxidLag }]));
  };
  const showState = (view) => {
    shown = view;
    fill(parts.heading, h('h1', {}, view.name, ' ', phaseBadge(view.phase)), h('p', { class: 'hint', id: 'summary' }, `${view.cluster} · ${view.namespace} · ${view.members.ready} of ${view.members.desired} members ready · leader ${view.leader ?? 'none'}`));
    showMembers();
    fill(parts.conditions, view.conditions.map((condition) => h('li', { 'data-condition': condition.type, 'data-status': condition.status }, conditionSentence(condition))));
    if (replicas.value === '') replicas.value = String(view.members.desired);
  };
  const showTraits = (traits) => fill(parts.traits, traits.length === 0 ? h('li', {}, 'No trait yet: scale or restart creates one.') : traits.map((trait) => h('li', {}, `${trait.kind} ${trait.name}: ${trait.phase ?? 'no status yet'}`)));
  const addLine = (line) => {
    // The info's Events come again at the head of the stream; an Event seen again only replaces its older line.
    const same = timeline.findIndex((old) => old.title === line.title && old.text === line.text && old.kind === line.kind);
    if (same >= 0) timeline.splice(same, 1);
    timeline.push(line);
    timeline.sort((a, b) => (b.time ?? '').localeCompare(a.time ?? ''));
    timeline.splice(TIMELINE_LENGTH);
    fill(parts.timeline, timeline.map(timelineItem));
  };

  const scale = async (event) => {
    event.preventDefault();
    const wanted = Number(replicas.value);
    const explanation = `The ensemble goes to ${wanted} members one member at a time: each new member joins and syncs, or each removed member leaves the voters by dynamic reconfiguration, before the next change. The quorum is kept throughout.`;
    if (!(await confirmAction(`Scale ${target.name} to ${wanted}?`, explanation, 'Scale'))) return;
    await api('POST', `${path}/scale`, { replicas: wanted }).then(() => {
      notify(`Scaling ${target.name} to ${wanted} members.`);
      readTraits();
    }, (error) => notify(error.message));
  };
  const restart = async () => {
    const explanation = 'Every member restarts once, one at a time: the followers first, the leader last, each waiting until the one before is back in the quorum and synced.';
    if (!(await confirmAction(`Restart ${target.name}?`, explanation, 'Restart'))) return;
    await api('POST', `${path}/restart`, {}).then(() => {
      notify(`Restarting ${target.name}, the leader last.`);
      readTraits();
    }, (error) => notify(error.message));
  };

  fill(
    main,
    parts.heading,
    h('div', { class: 'columns' }, h('section', { 'aria-label': 'The members' }, parts.ring, parts.members), h('section', { 'aria-labelledby': 'conditions-title' }, h('h2', { id: 'conditions-title' }, 'Conditions'), parts.conditions, h('h2', {}, 'Traits'), parts.traits)),
    h(
      'section',
      { 'aria-labelledby': 'actions-title', class: 'actions' },
      h('h2', { id: 'actions-title' }, 'Actions'),
      h('form', { onsubmit: scale }, h('label', { for: 'replicas' }, 'Members'), ' ', replicas, ' ', h('button', { type: 'submit' }, 'Scale…')),
      h('button', { type: 'button', onclick: restart }, 'Restart…'),
    ),
    h('section', { 'aria-labelledby': 'timeline-title' }, h('h2', { id: 'timeline-title' }, 'Timeline'), parts.timeline),
  );

  let traitsRead;
  const readTraits = () => {
    // The stream carries the workload; its traits (made by the actions, changed by their controllers) are read again
    // after each action and each Event, at most once a second.
    clearTimeout(traitsRead);
    traitsRead = setTimeout(() => api('GET', path).then((info) => showTraits(info.traits), (error) => notify(error.message)), 1000);
  };
  const readLags = () => {
    if (document.hidden || shown === undefined) return;
    // A failed poll is said in the table's caption, not announced every few seconds.
    api('GET', `${path}/members`).then(keepLags, (error) => keepLags({ zxid: { available: false, reason: error.message }, members: [] })).then(showMembers);
  };
  const lagPoll = setInterval(readLags, LAG_POLL_MS);
  document.addEventListener('visibilitychange', readLags);
  api('GET', path)
    .then((info) => {
      keepLags({ zxid: info.zxid, members: info.memberStatus });
      showState(info);
      showTraits(info.traits);
      info.events.forEach((event) => addLine(eventLine(event)));
    })
    .catch((error) => notify(error.message));
  const source = listen(`${path}/stream`, {
    snapshot: showState,
    MODIFIED: showState,
    DELETED: () => notify(`${target.name} was deleted.`),
    event: (event) => {
      addLine(eventLine(event));
      readTraits();
    },
    fact: (fact) => addLine(factLine(fact)),
  });
  return () => {
    clearTimeout(traitsRead);
    clearInterval(lagPoll);
    document.removeEventListener('visibilitychange', readLags);
    source.close();
  };
}
