import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { forgetSignupAddress } from '../../../lib/signup-address';

/** Ends the session (POST /auth/logout); the next user of this tab gets no address of this one's. */
export const logOut = async () => {
  forgetSignupAddress();
  await api.send('POST', API.logout);
};
