// Bundled in place of ajv and ajv-formats: conf imports them at load time but uses them only for a JSON
// schema, and cssctl gives conf none. Leaving them out keeps ~200 KB off every command that reads config.
class Unavailable {
  constructor() {
    throw new Error('cssctl is built without ajv: conf must not be given a schema');
  }
}
export const Ajv2020 = Unavailable;
export default { default: () => undefined };
