import { API } from '#contract/routes.js';

/**
 * The Settings screen's "Your data": the two downloads (GET /export, GET /export.csv) as plain links. The
 * browser saves the server's answer (its Content-Disposition names the file): no script, no library.
 */
export function YourData() {
  return (
    <>
      <h2 className="h5">Your data</h2>
      <p className="text-muted">
        Take a copy of everything we store about you: your account, mailboxes, senders, message references,
        rules and the record of every unsubscribe. Passwords and keys are never part of it.
      </p>
      <ul className="list-unstyled mb-5">
        <li className="mb-2">
          <a href={API.exportJson} download>
            Download everything (JSON)
          </a>
        </li>
        <li>
          <a href={API.exportCsv} download>
            Download the subscription list (CSV)
          </a>
        </li>
      </ul>
    </>
  );
}
