// The page: who is signed in, and which view the address names (#/ the ensembles, #/?namespace=<ns> those of one
// namespace, #/create the form, #/ensemble/<cluster>/<namespace>/<name> one ensemble). Each view returns how to leave it (its streams close).
import { api, ApiError } from './api.js';
import { createView } from './create.js';
import { h, fill, notify } from './dom.js';
import { ensembleView } from './ensemble.js';
import { listView } from './list.js';

const main = document.getElementById('main');
let leave = () => {};

function route() {
  const [path, query] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map(decodeURIComponent);
  if (parts[0] === 'create') return (target) => createView(target);
  if (parts[0] === 'ensemble' && parts.length === 4) return (target) => ensembleView(target, { cluster: parts[1], namespace: parts[2], name: parts[3] });
  return (target) => listView(target, new URLSearchParams(query ?? '').get('namespace') ?? '');
}

function show() {
  leave();
  leave = route()(fill(main));
  main.focus();
}

function signIn(message) {
  leave();
  leave = () => {};
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'token-hint' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    h('label', { for: 'token' }, 'Kubernetes bearer token'),
    input,
    h('p', { id: 'token-hint', class: 'hint' }, 'Every action is made with this token, so your RBAC decides what you may do. Get one with ', h('code', {}, 'kubectl create token <service-account>'), '.'),
    message === undefined ? undefined : h('p', { class: 'error', role: 'alert' }, message),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const { caller } = await api('POST', '/session', { token: input.value.trim() });
      signedIn(caller);
    } catch (error) {
      signIn(error instanceof ApiError && error.code === 401 ? 'The API server did not accept this token.' : error.message);
    }
  });
  fill(main, form);
  input.focus();
}

function signedIn(caller) {
  fill(document.getElementById('who'), `Signed in as ${caller.username}`);
  document.getElementById('sign-out').hidden = false;
  show();
}

document.getElementById('sign-out').addEventListener('click', async () => {
  await api('DELETE', '/session');
  fill(document.getElementById('who'));
  document.getElementById('sign-out').hidden = true;
  signIn();
});

// The address's fragment names the view, so the skip link moves the focus itself instead of following #main.
document.querySelector('.skip').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});

window.addEventListener('hashchange', () => {
  if (!document.getElementById('sign-out').hidden) show();
});

try {
  signedIn((await api('GET', '/session')).caller);
} catch (error) {
  if (!(error instanceof ApiError && error.code === 401)) notify(error.message);
  signIn();
}
