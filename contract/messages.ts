// The messages of the validation rules (docs/product.md §5), apart from the rules themselves
// (validation.ts, which re-exports these): the page's entry chunk needs a few of them (the API client's
// CSRF and rate-limit answers) and not the rules nor the provider table they bring.

export const MIN_PASSWORD_LENGTH = 8;

export const MESSAGES = {
  invalidEmail: 'Please enter a valid email address.',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordRequired: 'Password is required.',
  appPasswordRequired: 'App-specific password is required.',
  contactIncomplete: 'Please fill in every field with a valid email address.',
  tooManyRequests: 'Too many requests from this IP, please try again later.',
  tooManySignins:
    'Too many failed sign-ins for this address. Please wait a few minutes, or reset your password.',
  wrongCredentials: 'Incorrect email or password.',
  tooManyCodes: 'Too many wrong codes. Please wait a few minutes and try again.',
  resetTokenInvalid: 'This reset link is invalid or has expired. Please request a new one.',
  csrf: 'Your session token is missing or out of date. Please reload the page and try again.',
  notSignedIn: 'Please sign in to continue.',
} as const;
