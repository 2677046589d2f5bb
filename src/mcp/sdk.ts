// The parts of the Model Context Protocol SDK (`@modelcontextprotocol/sdk`, pinned exactly in package.json) that
// `cssctl mcp` uses: the low-level Server, the protocol's schemas and errors, and ajv for the tools' input
// schemas. The build bundles this file apart, into dist/mcp.cjs (scripts/build.mjs), which only `cssctl mcp`
// loads: no other command reads a byte of the SDK. Everything else of src/mcp/ is in the CLI's bundle and imports
// only types from the SDK, or this file (dynamically).
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
export { Ajv } from 'ajv';
