/** The outcome of validating a document against the OpenAPI 3.1 schema. */
export interface OpenApiValidation {
  valid: boolean
  /** The validator's complaints, each as a line; empty when valid. */
  errors: string[]
}

const validatorPackage = '@seriousme/openapi-schema-validator'

/**
 * Validates an OpenAPI document against the official 3.1 JSON Schema with
 * @seriousme/openapi-schema-validator. It is an optional peer dependency of the core (a
 * production gateway never needs it), so it is loaded only here; when it is not installed the
 * answer says how to add it instead of failing obscurely.
 *
 * @example
 * const { valid, errors } = await validateOpenApi(JSON.parse(response.body ?? '')) // the answer to /api/v1/openapi.json
 */
export async function validateOpenApi(document: unknown): Promise<OpenApiValidation> {
  let module: typeof import('@seriousme/openapi-schema-validator')
  try {
    module = await import('@seriousme/openapi-schema-validator')
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error
    return {
      valid: false,
      errors: [
        `${validatorPackage} is not installed; add it as a dev dependency (npm install -D ${validatorPackage}) to validate the OpenAPI document`,
      ],
    }
  }
  // The validator keeps state from one document to the next, so each document gets its own.
  const result = await new module.Validator().validate(
    document as Parameters<InstanceType<typeof module.Validator>['validate']>[0],
  )
  const errors = Array.isArray(result.errors)
    ? result.errors.map((e) => JSON.stringify(e))
    : result.errors
      ? [String(result.errors)]
      : []
  return { valid: result.valid, errors }
}
