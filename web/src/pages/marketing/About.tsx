// Placeholder: the marketing helper replaces this file with the real page body.
export default function About() {
  return (
    <section className="container py-5">
      <h1>About Inbox Genie</h1>
    </section>
  );
}
