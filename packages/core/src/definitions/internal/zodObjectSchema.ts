/**
 * A zod object schema (zod 4's `_zod.def.type`, zod 3's `_def.typeName`). Its JSON form is made when
 * it is first offered to a model, as the reference makes it: a zod object whose fields cannot be
 * described (`z.custom()`) is a valid output type until a run asks the model with it.
 */
export function isZodObjectSchema(schema: object): boolean {
  const zod4 = (schema as { _zod?: { def?: { type?: unknown } } })._zod?.def;
  if (zod4 !== undefined) return zod4.type === 'object';
  return (schema as { _def?: { typeName?: unknown } })._def?.typeName === 'ZodObject';
}
