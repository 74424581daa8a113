// An app's resources/list and resources/templates/list: only its own launch's server, through the same bounded and
// sanitized listing a person's resources view uses (item budget, repeated or oversized cursors refused), within the
// launch's budget for resource requests.
import type { AppResourceTemplate } from '../../../shared/domains/apps.js';
import type { ResourceItem, ResourceTemplateItem } from '../../../shared/domains/resources.js';
import type { Launch } from './launches.js';

/** What listing for an app needs: open launches and the host's resource listings. */
export interface AppResourcesDeps {
  /** An open launch; throws `not_found` when it was closed. */
  launch(launchId: string): Launch;
  /** One bounded page of a server's resources. */
  list(serverId: string, cursor?: string): Promise<{ resources: ResourceItem[]; nextCursor?: string }>;
  /** A server's resource templates, bounded. */
  templates(serverId: string): Promise<{ templates: ResourceTemplateItem[] }>;
}

/** apps.listResources: one page of the launch's server's resources (MCP's ListResourcesResult shape). */
export async function listAppResources(
  deps: AppResourcesDeps,
  launchId: string,
  cursor?: string,
): Promise<{ resources: ResourceItem[]; nextCursor?: string }> {
  const launch = deps.launch(launchId);
  return launch.reads.run(launch.serverId, () => deps.list(launch.serverId, cursor));
}

/** apps.listResourceTemplates: the launch's server's resource templates (MCP's ListResourceTemplatesResult shape). */
export async function listAppResourceTemplates(
  deps: AppResourcesDeps,
  launchId: string,
): Promise<{ resourceTemplates: AppResourceTemplate[] }> {
  const launch = deps.launch(launchId);
  const { templates } = await launch.reads.run(launch.serverId, () => deps.templates(launch.serverId));
  // The listing adds variable names for the person's form; an app gets the protocol's fields only.
  return { resourceTemplates: templates.map(({ variables: _variables, ...template }) => template) };
}
