/** The id of each layout's <main>: where "Skip to content" leads. */
export const MAIN_ID = 'main-content';

/**
 * The first stop of the keyboard on every page: hidden until focused, it moves focus past the navigation
 * (the sidebar or the nav bar) to the screen itself.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      className="skip-link visually-hidden-focusable"
      onClick={(event) => {
        // The router owns the URL's hash; focus moves without changing it.
        event.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView();
      }}
    >
      Skip to content
    </a>
  );
}
