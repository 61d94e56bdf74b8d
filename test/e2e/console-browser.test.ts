/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The console's web page in a real browser (Debian's Chromium, headless, driven by playwright-core) against the bed,
// with the workload, scale and rolling controllers running: a person signs in with a token, creates an ensemble from
// the form and watches it become Ready, restarts it and reads in the timeline that the leader went last (at 3 members,
// before the scale: three JVM restarts, not five), scales it to 5 with the button and watches the members join one at a
// time, reads each member's zxid lag in the table and the ring, then finds it in the list of its namespace. The page is
// never reloaded; each step saves a screenshot under test-results/console-browser/, and every assertion reads the
// page's content.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, repoRoot, waitFor } from '../src/controllers/index.js';
import { bindRole, call, cleanUpConsole, consoleKubeconfig, createConsoleRoles, launchChromium, serviceAccountToken, startConsole, type ConsoleProcess } from './console-support.js';
import { useRollingController } from './rolling-scenario.js';
import { useScaleController } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const suite = useScaleController(bed, { namespacePrefix: 'console-page' });
useRollingController(bed);
const { namespace } = suite;
const NAME = 'zk-page';
const READY_TIMEOUT_MS = 420_000;
/** A read of the page's DOM costs the browser next to nothing; the page shows a change within its own refresh. */
const PAGE_POLL_MS = 250;
const shots = join(repoRoot, 'test-results', 'console-browser');
const workDir = mkdtempSync(join(tmpdir(), 'console-browser-'));
const admin = new PooledKubeConfig();
admin.loadFromFile(bed.kubeconfig);
let consoleProcess: ConsoleProcess | undefined;
let browser: Browser | undefined;
let page: Page;
let token = '';
let roles = { edit: '', view: '' };
let shot = 0;

async function screenshot(name: string): Promise<void> {
  shot += 1;
  await page.screenshot({ path: join(shots, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage: true });
}

interface TimelineLine {
  readonly title: string;
  readonly text: string;
  readonly time: number;
}

async function kubectlJson(args: string[]): Promise<Record<string, Record<string, unknown> | undefined>> {
  return JSON.parse(await kubectl(bed, [...args, '-o', 'json'])) as Record<string, Record<string, unknown> | undefined>;
}

/** The timeline's lines as the page shows them, oldest first. */
async function timeline(): Promise<TimelineLine[]> {
  const lines = await page.locator('ol.timeline li').evaluateAll((items) =>
    items.map((item) => ({ title: item.getAttribute('data-title') ?? '', text: item.textContent, time: item.querySelector('time')?.getAttribute('datetime') ?? '' })),
  );
  return lines.map((line) => ({ ...line, time: Date.parse(line.time) })).sort((a, b) => a.time - b.time);
}

describe('the console web page in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    roles = await createConsoleRoles(admin, `console-page-${Date.now().toString(36)}`);
    token = await serviceAccountToken(admin, namespace, 'operator');
    await bindRole(admin, namespace, roles.edit, { namespace, name: 'operator' });
    consoleProcess = await startConsole(bed, consoleKubeconfig(bed, join(workDir, 'kubeconfig'), { bed: namespace }));
    const base = consoleProcess.base;
    // The RBAC authorizer reads bindings from a watch cache: wait until the operator's rights are seen.
    await waitFor('the operator to list ensembles', async () => (await call(base, 'GET', '/api/v1/clusters/bed/zookeepers', token)).code, (code) => code === 200, 30_000, 250);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(base);
  });

  afterAll(async () => {
    await browser?.close();
    await cleanUpConsole(admin, { console: consoleProcess, roles, workDir });
  });

  it('signs in with a token the API server accepts, and refuses one it does not', async () => {
    await page.getByLabel('Kubernetes bearer token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('did not accept this token');
    await page.getByLabel('Kubernetes bearer token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#who').textContent()).toBe(`Signed in as system:serviceaccount:${namespace}:operator`);
    await expect.poll(() => page.locator('table caption').textContent()).toContain('ZooKeeper ensembles');
    await screenshot('signed-in');
    // Marks this document: if the page reloaded later, the mark would be gone.
    await page.evaluate(() => Object.assign(window, { consoleTestMark: 'loaded once' }));
  });

  it('creates an ensemble from the form, names a refused field at the field, and shows it Ready without reloading', async () => {
    await page.getByRole('link', { name: 'Create' }).click();
    await page.locator('[data-path="metadata.name"]').fill(NAME);
    await page.getByLabel('replicas', { exact: true }).fill('0');
    await page.locator('summary', { hasText: /^storage$/ }).click();
    await page.locator('[data-path="spec.storage.size"]').fill('64Mi');
    await page.locator('[data-path="spec.storage.storageClassName"]').fill('bed-local');
    await page.locator('[data-path="spec.storage.reclaimPolicy"]').selectOption('Delete');
    await screenshot('create-form');
    await page.getByRole('button', { name: 'Create' }).click();
    const replicas = page.getByLabel('replicas', { exact: true });
    await expect.poll(() => replicas.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-spec-replicas-error').textContent()).not.toBe('');
    await screenshot('create-refused');

    await replicas.fill('3');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/ensemble/bed/${namespace}/${NAME}`);
    await expect.poll(() => page.locator('[data-condition="Ready"]').getAttribute('data-status'), { timeout: READY_TIMEOUT_MS, interval: PAGE_POLL_MS }).toBe('True');
    expect(await page.locator('[data-condition="Ready"]').textContent()).toMatch(/^Ready: yes/);
    // Ready (a quorum with a leader) can come a status update before Running (every member healthy): the page shows each as it comes.
    await expect.poll(() => page.locator('h1 .badge').textContent(), { timeout: READY_TIMEOUT_MS, interval: PAGE_POLL_MS }).toBe('Running');
    await expect.poll(() => page.locator('table.members tbody tr').count()).toBe(3);
    expect(await page.locator('table.members tr[data-role="leader"]').count()).toBe(1);
    expect(await page.locator('svg.ring .role-leader .leader-mark').textContent()).toBe('leader');
    expect(await page.evaluate(() => (window as unknown as { consoleTestMark?: string }).consoleTestMark)).toBe('loaded once');
    await screenshot('ready');
  });

  it('restarts after a confirmation, and the timeline shows every member restarted once, the leader last', async () => {
    const leader = await page.locator('table.members tr[data-role="leader"]').getAttribute('data-pod');
    expect(leader).toMatch(new RegExp(`^${NAME}-\\d$`));
    await page.getByRole('button', { name: 'Restart…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('the leader last');
    await dialog.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(async () => (await timeline()).some((line) => line.title === 'RollingCompleted'), { timeout: READY_TIMEOUT_MS, interval: PAGE_POLL_MS }).toBe(true);
    await screenshot('restarted');
    const restarts = (await timeline()).filter((line) => line.title === 'RestartingPod');
    const pods = restarts.map((line) => /Deleted pod (\S+)/.exec(line.text)?.[1]);
    expect(new Set(pods).size, pods.join(', ')).toBe(3);
    expect(restarts).toHaveLength(3);
    expect(pods.at(-1)).toBe(leader);
    expect(restarts.at(-1)?.text).toContain('the leader, last');
    for (const line of restarts.slice(0, -1)) expect(line.text).toContain('a follower');
    expect(await page.evaluate(() => (window as unknown as { consoleTestMark?: string }).consoleTestMark)).toBe('loaded once');
    // The scale that follows counts the table's rows from 3: the last restarted member is back in it first.
    await expect.poll(() => page.locator('#summary').textContent(), { timeout: READY_TIMEOUT_MS, interval: PAGE_POLL_MS }).toContain('3 of 3 members ready');
  });

  it('scales to 5 with the button after a confirmation, and the members appear one at a time', async () => {
    // Every change of the members table, as the page showed it.
    await page.evaluate(() => {
      const seen: number[] = [];
      const record = () => {
        const count = document.querySelectorAll('table.members tbody tr').length;
        if (seen.at(-1) !== count) seen.push(count);
      };
      new MutationObserver(record).observe(document.getElementById('main') ?? document.body, { subtree: true, childList: true });
      record();
      Object.assign(window, { membersSeen: seen });
    });
    await page.getByLabel('Members', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Scale…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('one member at a time');
    await screenshot('scale-confirmation');
    await dialog.getByRole('button', { name: 'Scale' }).click();
    await expect.poll(() => page.locator('table.members tbody tr').count(), { timeout: READY_TIMEOUT_MS, interval: 250 }).toBe(4);
    await screenshot('scale-4-members');
    await expect.poll(() => page.locator('#summary').textContent(), { timeout: READY_TIMEOUT_MS, interval: PAGE_POLL_MS }).toContain('5 of 5 members ready');
    await screenshot('scale-5-members');
    const seen = await page.evaluate(() => (window as unknown as { membersSeen: number[] }).membersSeen);
    expect(seen[0]).toBe(3);
    expect(seen.at(-1)).toBe(5);
    expect(seen.indexOf(4)).toBeGreaterThan(0);
    for (let index = 1; index < seen.length; index += 1) expect((seen[index] ?? 0) - (seen[index - 1] ?? 0), `members seen ${seen.join(' → ')}`).toBeLessThanOrEqual(1);
    expect(await page.locator('ul.traits').textContent()).toContain('ZookeeperScale');
  });

  it("shows each member's zxid lag in the table and the ring, the leader's 0, refreshed without reloading", async () => {
    const lags = () => page.locator('table.members tbody td.zxid-lag').allTextContents();
    // The page asks every few seconds; the workload controller answers from its latest look. After the scale's reconfigs
    // (writes) every member holds a transaction of the leader's epoch, so each has a number.
    await expect.poll(lags, { timeout: 60_000, interval: PAGE_POLL_MS }).toSatisfy((shown: string[]) => shown.length === 5 && shown.every((lag) => /^\d+$/.test(lag)));
    expect(await page.locator('table.members tr[data-role="leader"] td.zxid-lag').textContent()).toBe('0');
    expect(await page.locator('table.members th[scope="col"]').allTextContents()).toContain('Zxid lag');
    expect(await page.locator('table.members caption').textContent()).toMatch(/zxid lag as the workload controller saw it at/);
    expect(await page.locator('svg.ring .role-leader title').textContent()).toMatch(/, zxid lag 0$/);
    expect(await page.locator('svg.ring').getAttribute('aria-label')).toMatch(/zxid lag \d+/);
    expect(await page.evaluate(() => (window as unknown as { consoleTestMark?: string }).consoleTestMark)).toBe('loaded once');
    await screenshot('zxid-lag');
  });

  it('lists the ensemble among those of the namespace asked for, with its members, leader and traits', async () => {
    await page.getByRole('link', { name: 'Ensembles' }).click();
    await page.getByLabel('Namespace').fill(namespace);
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/?namespace=${namespace}`);
    const row = page.locator(`tr[data-ensemble="bed/${namespace}/${NAME}"]`);
    await expect.poll(() => row.locator('[data-members]').getAttribute('data-members')).toBe('5/5');
    expect(await row.textContent()).toMatch(/Scale Idle.*Rolling (Completed|Idle)/);
    await page.getByLabel('Filter').fill('no-such-ensemble');
    expect(await row.count()).toBe(0);
    await screenshot('list');
    expect(await page.evaluate(() => (window as unknown as { consoleTestMark?: string }).consoleTestMark)).toBe('loaded once');
  });

  it('labels every control, works from the keyboard alone, and keeps text at a contrast of 4.5:1 or more', async () => {
    await page.getByRole('link', { name: 'Create' }).click();
    await page.waitForSelector('form.create');
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')]
        .filter((control) => control.labels === null || control.labels.length === 0)
        .map((control) => control.id || control.name),
    );
    expect(unlabelled).toEqual([]);

    await page.evaluate((hash) => (location.hash = hash), `#/ensemble/bed/${namespace}/${NAME}`);
    await page.waitForSelector('table.members tbody tr');
    // The skip link comes before the header's links and moves the focus to the content.
    await page.locator('header .brand').focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // From the content, Tab reaches the members field, Scale and Restart; Enter opens Restart's confirmation with the
    // focus inside it, and Escape leaves it: nothing is restarted.
    const restartTrigger = async () => (await kubectlJson(['get', 'zkr', NAME, '-n', namespace]))['spec']?.['restartTrigger'];
    const before = await restartTrigger();
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('replicas');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Scale…');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Restart…');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('dialog').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await restartTrigger()).toBe(before);

    const lowContrast = await page.evaluate(() => {
      const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
      const luminance = (color: string) => {
        const [r = 0, g = 0, b = 0] = channels(color).map((value) => value / 255).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = (element: Element | null): string => {
        for (let at = element; at !== null; at = at.parentElement) {
          const color = getComputedStyle(at).backgroundColor;
          if ((channels(color)[3] ?? 1) > 0) return color;
        }
        return 'rgb(255, 255, 255)';
      };
      return [...document.querySelectorAll('main *, header *')]
        .filter((element) => [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== ''))
        .map((element) => {
          const [lighter, darker] = [luminance(getComputedStyle(element).color), luminance(background(element))].sort((a, b) => b - a);
          return { text: element.textContent?.slice(0, 30), ratio: ((lighter ?? 1) + 0.05) / ((darker ?? 0) + 0.05) };
        })
        .filter((sample) => sample.ratio < 4.5);
    });
    expect(lowContrast).toEqual([]);
  });
});
