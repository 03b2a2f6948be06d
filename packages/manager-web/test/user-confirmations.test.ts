// Browser tests (real Chromium, real manager on loopback): destructive user actions ask first, with the
// focus on Cancel, and the refusal to suspend, demote or delete the last active administrator is shown
// beside the action.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { userClient } from '@app/manager/testing';
import { browserSuite, poll, readToast, screenshot, signedInPage } from './browser.ts';

const focusedText = (page: Page) => page.evaluate<string>("document.activeElement?.textContent ?? ''");

describe('manager web client: confirming user actions', { timeout: 90_000 }, () => {
  const suite = browserSuite();
  const statusOf = async (uid: string) =>
    ((await suite.admin.get('/users')).body.data as Array<{ uid: string; status: string }>).find(
      (user) => user.uid === uid,
    )?.status;

  it('asks before suspending or deleting, naming the user; Cancel does nothing', async () => {
    await userClient(suite.test, suite.admin, 'dora');
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('tr[data-user="dora"]');

    await row.getByRole('button', { name: 'Suspend' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend dora' });
    await suspend.getByText(/Suspend dora \(dora User\)\?/).waitFor();
    await poll(() => focusedText(page)).toBe('Cancel');
    await screenshot(page, 'user-suspend-confirm');
    await page.keyboard.press('Enter');
    await suspend.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete dora' });
    await remove.getByText(/Delete dora \(dora User\)\?/).waitFor();
    await poll(() => focusedText(page)).toBe('Cancel');
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await remove.waitFor({ state: 'hidden' });
    expect(await statusOf('dora')).toBe('active');
    expect(seen.writes.filter((write) => write.url.includes('/users/'))).toEqual([]);

    await row.getByRole('button', { name: 'Suspend' }).click();
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await readToast(page, 'dora is now suspended');
    expect(await statusOf('dora')).toBe('suspended');
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('shows why the last active administrator can be neither suspended, demoted nor deleted', async () => {
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('tr[data-user="admin"]');
    const refusal = /make another user an administrator first/;

    await row.getByRole('button', { name: 'Suspend' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend admin' });
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.getByTestId('action-refused').getByText(refusal).waitFor();
    await screenshot(page, 'user-suspend-last-admin');
    await suspend.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete admin' });
    await remove.getByRole('button', { name: 'Delete' }).click();
    await remove.getByTestId('action-refused').getByText(refusal).waitFor();
    await remove.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit admin' });
    await edit.getByLabel('Status', { exact: true }).click();
    await page.getByRole('option', { name: 'suspended' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Suspend admin? Their open sessions end at once.').waitFor();
    await poll(() => focusedText(page)).toBe('Cancel');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByTestId('action-refused').getByText(refusal).waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'hidden' });

    await row.getByRole('button', { name: 'Edit' }).click();
    await edit.getByLabel('Groups', { exact: true }).focus();
    await page.keyboard.press('Backspace'); // takes off the last group, sysadmins
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Remove the administrator rights of admin?').waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByTestId('action-refused').getByText(refusal).waitFor();
    await screenshot(page, 'user-demote-last-admin');

    const admin = (await suite.admin.get('/users')).body.data.find(
      (user: { uid: string }) => user.uid === 'admin',
    );
    expect(admin).toMatchObject({ status: 'active', isAdmin: true });
    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('asks before taking the administrators flag from a group with members, and shows the last-admin refusal', async () => {
    const { context, page, seen } = await signedInPage(suite, 'admin');
    await page.getByRole('link', { name: 'Groups' }).click();
    const row = page.locator('tr[data-group="sysadmins"]');
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit sysadmins' });
    await edit.getByLabel(/^Administrators/).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText(/Take administrator rights from the \d+ members? of sysadmins\?/).waitFor();
    await poll(() => focusedText(page)).toBe('Cancel');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit
      .getByTestId('action-refused')
      .getByText(/make another user an administrator first/)
      .waitFor();
    const groups = (await suite.admin.get('/groups')).body.data as Array<{ cn: string; isAdmin: boolean }>;
    expect(groups.find((group) => group.cn === 'sysadmins')?.isAdmin).toBe(true);
    expect(seen.errors).toEqual([]);
    await context.close();
  });
});
