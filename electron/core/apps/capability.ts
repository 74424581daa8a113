// The client capability that tells servers this host renders MCP Apps (extension io.modelcontextprotocol/ui), so
// servers that check it offer their UI-enabled tools.
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';

/** The MCP Apps extension id. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** `extensions["io.modelcontextprotocol/ui"] = { mimeTypes: ["text/html;profile=mcp-app"] }`. */
export const APPS_CLIENT_CAPABILITIES: ClientCapabilities = { extensions: { [APPS_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };
