// Error answers: every error is JSON {detail, code, field?} (plus errors[] for 422).

export interface FieldError {
  field: string;
  detail: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly field?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toBody(): Record<string, unknown> {
    return {
      detail: this.detail,
      code: this.code,
      ...(this.field === undefined ? {} : { field: this.field }),
      ...(this.errors === undefined ? {} : { errors: this.errors }),
    };
  }
}

/** 422 naming the first offending field in `field` and all of them in `errors`. */
export function validationError(errors: FieldError[]): ApiError {
  const first = errors[0] ?? { field: 'body', detail: 'invalid request body' };
  const detail = errors.map((e) => e.detail).join('; ');
  return new ApiError(422, 'validation_error', detail, first.field, errors);
}

export function badParameter(field: string, detail: string): ApiError {
  return new ApiError(400, 'invalid_parameter', detail, field);
}

export function notFound(detail: string): ApiError {
  return new ApiError(404, 'not_found', detail);
}
