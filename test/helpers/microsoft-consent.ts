import { expect } from 'vitest';

/**
 * The user on Microsoft's side of the Graph fake: opens the authorization URL, picks their account on
 * the fake's account picker and is sent back to `callback`. Answers the callback path (with its query)
 * that the browser loads next. `tamper` edits the authorization request first.
 */
export async function consentOnGraphFake(
  authorizeUrl: string,
  email: string,
  callback: string,
  tamper: (url: URL) => void = () => {},
): Promise<string> {
  const url = new URL(authorizeUrl);
  tamper(url);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = [...html.matchAll(/<form method="post">([\s\S]*?)<\/form>/g)].find((m) =>
    m[1]!.includes(`name="login_hint" value="${email}"`),
  );
  if (!form) throw new Error(`no account ${email} on the account picker`);
  const fields = new URLSearchParams();
  for (const input of form[1]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.set(
      input[1]!,
      input[2]!
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
  }
  const back = await fetch(url, { method: 'POST', body: fields, redirect: 'manual' });
  expect(back.status).toBe(302);
  const location = new URL(back.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(callback);
  return `${location.pathname}${location.search}`;
}
