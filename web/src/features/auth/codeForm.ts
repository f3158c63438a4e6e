import { z } from 'zod';
import { ruleSchema } from '../../components/formSchema';
import { codeProblem } from '../../components/oneTimeCode';

/** The second step's form: one code, an app's or a recovery code (components/oneTimeCode.ts). */
export const codeFormSchema = ruleSchema(
  { code: z.string() },
  ({ code }) => codeProblem(code),
  () => 'code',
);
