// The members drawn as a ring: one circle per member around the ensemble, the leader marked with a thick outline and
// the word "leader", a member not synced drawn dashed, each member's zxid lag written below it and in its tooltip. The
// table beside it says the same in text.
import { h } from './dom.js';
import { lagText } from './words.js';

const SIZE = 240;
const CENTER = SIZE / 2;
const RADIUS = 82;

function memberNode(member, index, count) {
  const angle = (2 * Math.PI * index) / count - Math.PI / 2;
  const x = CENTER + RADIUS * Math.cos(angle);
  const y = CENTER + RADIUS * Math.sin(angle);
  const leader = member.role === 'leader';
  const lag = lagText(member.zxidLag);
  return h(
    'svg:g',
    { class: `member role-${member.role}${member.synced ? '' : ' unsynced'}`, 'data-pod': member.pod },
    h('svg:title', {}, `${member.pod} ${member.role}, zxid lag ${lag}`),
    h('svg:circle', { cx: x, cy: y, r: leader ? 26 : 22 }),
    h('svg:text', { x, y: y + 4, 'text-anchor': 'middle' }, String(member.myid ?? index + 1)),
    leader ? h('svg:text', { x, y: y - 32, 'text-anchor': 'middle', class: 'leader-mark' }, 'leader') : undefined,
    member.zxidLag?.kind === 'behind' ? h('svg:text', { x, y: y + (leader ? 42 : 38), 'text-anchor': 'middle', class: 'lag-mark' }, `lag ${lag}`) : undefined,
  );
}

export function memberRing(members) {
  const description = members.map((member) => `${member.pod} ${member.role}${member.synced ? '' : ' (not synced)'}, zxid lag ${lagText(member.zxidLag)}`).join(', ');
  return h(
    'svg:svg',
    { class: 'ring', viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'img', 'aria-label': members.length === 0 ? 'No member reported yet' : `Members: ${description}` },
    h('svg:circle', { cx: CENTER, cy: CENTER, r: RADIUS, class: 'orbit' }),
    members.map((member, index) => memberNode(member, index, members.length)),
  );
}
