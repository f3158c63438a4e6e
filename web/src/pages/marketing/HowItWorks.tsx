// Placeholder: the marketing helper replaces this file with the real page body.
export default function HowItWorks() {
  return (
    <section className="container py-5">
      <h1>How it Works</h1>
    </section>
  );
}
