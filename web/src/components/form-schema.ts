// Form schemas for react-hook-form (zodResolver) built from the contract's rules. A form answers one
// message at a time, the first rule that fails, in the order contract/validation.ts checks them (the
// screens show it in their error banner); `fieldOf` says which field it belongs to.
import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldErrors, type FieldValues, useForm } from 'react-hook-form';
import { z } from 'zod';
import type { ValidationResult } from '#contract/validation.js';

export function ruleSchema<Shape extends z.ZodRawShape>(
  shape: Shape,
  validate: (values: z.infer<z.ZodObject<Shape>>) => ValidationResult,
  fieldOf: (message: string) => keyof Shape & string,
) {
  return z.object(shape).superRefine((values, ctx) => {
    const message = validate(values);
    if (message) ctx.addIssue({ code: 'custom', message, path: [fieldOf(message)] });
  });
}

/** The banner's message: a field's (validation) first, else the server's answer to the submission. */
export function formMessage<T extends FieldValues>(errors: FieldErrors<T>): string | null {
  for (const [key, error] of Object.entries(errors)) {
    if (key === 'root') continue;
    const message = (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message) return message;
  }
  return errors.root?.server?.message ?? null;
}

/**
 * A form validated by `schema` on submit only; after a failed submit the message stays until the next
 * submit (as the screens always did), instead of following every keystroke.
 */
export function useSchemaForm<Schema extends z.ZodType<FieldValues, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
) {
  return useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
}
