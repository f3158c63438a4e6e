import { z } from 'zod';
import { ruleSchema } from '../../components/form-schema';
import { codeProblem } from '../../components/one-time-code';

/** The second step's form: one code, an app's or a recovery code (components/one-time-code.ts). */
export const codeFormSchema = ruleSchema(
  { code: z.string() },
  ({ code }) => codeProblem(code),
  () => 'code',
);
