// Placeholder: the marketing helper replaces this file with the real page body.
export default function Privacy() {
  return (
    <section className="container py-5">
      <h1>Privacy Policy</h1>
    </section>
  );
}
