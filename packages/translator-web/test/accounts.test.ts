// Dashboard accounts in real Chromium: an invitation accepted in the browser, a translator who sees only
// their languages, the owner's Team page, and signing in and out with a password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInMember } from '@app/translator/testing';
import {
  collectErrors,
  newPage,
  openAccountForm,
  screenshot,
  seedApproved,
  signInWithPassword,
  startDashboard,
  type Dashboard,
} from './browser.ts';

describe('dashboard accounts in Chromium', { timeout: 90_000 }, () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard();
    await seedApproved(
      dashboard,
      ['fr', 'de', 'es'],
      ['Welcome', 'Goodbye', 'Baked with {{text:0}} every day'],
    );
    // A page reported the words inside the sentence's slot.
    await dashboard.harness.client.post('/api/textnodes', {
      keys: [{ key: 'Baked with {{text:0}} every day', slots: ['organic flour'] }],
    });
  }, 120_000);
  afterAll(async () => dashboard?.stop());

  const fresh = () => newPage(dashboard.browser, dashboard.harness.url);
  const options = async (page: Page, label: string) => {
    await page.getByRole('combobox', { name: label }).click();
    return page.getByRole('option').allTextContents();
  };

  it('a translator account sees only their languages', async () => {
    const invite = await dashboard.harness.client.post('/api/members/invites', {
      email: 'lea@example.test',
      role: 'translator',
      languages: ['fr'],
    });
    const { page } = await fresh();
    const errors = collectErrors(page);
    await page.goto(invite.body.path);
    await page.getByText('You are invited as').waitFor();
    expect(await page.getByText('Translator (fr)').count()).toBe(1);
    await page.getByLabel('Your name').fill('Léa');
    await page.getByLabel('Choose a password').fill('croissant du matin');
    await page.getByLabel('Repeat the password').fill('croissant du matin');
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
    expect(await page.getByTestId('account').textContent()).toBe('Léa · Translator (fr)');

    // Only the pages a translator uses, and only French.
    const nav = await page.getByRole('navigation').getByRole('link').allTextContents();
    expect(nav).not.toContain('Settings');
    expect(nav).not.toContain('Team');
    expect(nav).not.toContain('AI translation');
    await page.goto('/translations');
    const field = page.getByLabel('Translation of "Goodbye" (fr)');
    await field.waitFor();
    expect(await options(page, 'Language')).toEqual(['French (fr)']);
    await page.keyboard.press('Escape');
    // The words inside a text slot show on its chip.
    expect(await page.locator('[data-slot="{{text:0}}"]').first().textContent()).toBe('organic flour');
    await field.fill('Au revoir');
    await field.press('Enter');
    await expect
      .poll(async () => {
        const rows = (await dashboard.harness.client.get('/api/translations/all?lang=fr')).body.rows;
        return rows.find((row: { key: string }) => row.key === 'Goodbye')?.value;
      })
      .toBe('Au revoir');
    const history = await dashboard.harness.client.get(
      `/api/translations/history?phrase_id=${(await dashboard.harness.client.get('/api/translations/all?search=Goodbye')).body.rows[0].id}&lang=fr`,
    );
    expect(history.body.entries[0].actor).toBe('lea@example.test');
    await screenshot(page, 'translator-account-grid');
    expect(errors).toEqual([]);
  });

  it('offers in-page editing and a link only for pages on the allowed origins', async () => {
    const allowed = 'http://localhost:8080/shop';
    const planted = ["javascript:alert('planted')", 'https://evil.example/page'];
    // The full key records any address: these stand for pages stored before registration checked them.
    for (const url of [allowed, ...planted])
      await dashboard.harness.client.post('/api/textnodes', { keys: [{ key: 'Welcome' }], url });
    const translator = await signedInMember(dashboard.harness, 'translator', ['fr']);
    const { page } = await fresh();
    const errors = collectErrors(page);
    await signInWithPassword(page, translator.email, translator.password);
    const open = async (url: string) => {
      await page.goto(`/analytics/url?url=${encodeURIComponent(url)}`);
      await page.getByRole('link', { name: 'Review this page’s phrases' }).waitFor();
      return {
        link: await page.getByTestId('detail-url').getByRole('link').count(),
        edit: await page.getByRole('button', { name: 'Edit on this page' }).count(),
        text: await page.getByTestId('detail-url').textContent(),
      };
    };
    expect(await open(allowed)).toEqual({ link: 1, edit: 1, text: allowed });
    for (const url of planted) expect(await open(url), url).toEqual({ link: 0, edit: 0, text: url });
    expect(errors).toEqual([]);
  });

  it('an owner invites from the Team page and gets the link to send', async () => {
    const owner = await signedInMember(dashboard.harness, 'owner');
    const { page } = await fresh();
    await signInWithPassword(page, owner.email, owner.password);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await page.getByLabel('E-mail').fill('max@example.test');
    await page.getByRole('combobox', { name: 'Role', exact: true }).click();
    await page.getByRole('option', { name: /^Reviewer/ }).click();
    await page.getByRole('combobox', { name: 'Languages', exact: true }).click();
    await page.getByRole('option', { name: 'German (de)' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = page.getByTestId('invite-link');
    await link.waitFor();
    expect(await link.textContent()).toMatch(new RegExp(`${dashboard.harness.url}/invite/[\\w-]+`));
    await page.getByTestId('team-invites').getByText('max@example.test').waitFor();
    expect(await page.getByTestId('team-invites').getByText('Reviewer (de)').count()).toBe(1);
    await screenshot(page, 'team-invited');
  });

  it('signs in with e-mail and password, refuses a wrong one, and signs out', async () => {
    const viewer = await signedInMember(dashboard.harness, 'viewer');
    const { page } = await fresh();
    await openAccountForm(page);
    await page.getByLabel('E-mail').fill(viewer.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('signin-error').textContent()).toContain('is wrong');
    await page.getByLabel('Password', { exact: true }).fill(viewer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Review phrases' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
    // The session is gone on the server too: a reload stays signed out.
    await page.reload();
    await page.getByLabel('E-mail').waitFor();
  });

  it('after signing in goes only to a page of the dashboard, whatever next says', async () => {
    const viewer = await signedInMember(dashboard.harness, 'viewer');
    const { page } = await fresh();
    for (const next of ['/\\evil.example', '/\t/evil.example', '/%2F/evil.example']) {
      await openAccountForm(page, `/signin?next=${encodeURIComponent(next)}`);
      await page.getByLabel('E-mail').fill(viewer.email);
      await page.getByLabel('Password', { exact: true }).fill(viewer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Review phrases' }).waitFor({ timeout: 10_000 });
      expect(new URL(page.url()).origin, next).toBe(dashboard.harness.url);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
