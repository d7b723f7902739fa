/**
 * The list verbs of an `McpClient`: one page (`listTools`…), every item as it is consumed
 * (`tools()`…), page by page (`pages()`), or the whole list (`listAllTools`…), through the
 * cache (`reads.ts`) and the paginator.
 */
import type { ListAllResult, Page } from '../pagination/paginate.js';
import { pages as walkPages } from '../pagination/paginate.js';
import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '../wire/protocol.js';
import type { CallOptions } from '../wire/callOptions.js';
import type { ListItemTypes, ListMethod, PageParams, WalkOptions } from './reads.js';
import { ClientView } from './clientView.js';

/** @internal The base of `McpClient` that holds its list verbs. */
export abstract class ClientLists extends ClientView {
  /** One page of `tools/list` (spec: server/tools). Malformed tools are reported and left out. */
  async listTools(params: PageParams = {}, options: CallOptions = {}): Promise<ListToolsResult> {
    return (await this.parts.reads.listPage('tools/list', params, options)) as ListToolsResult;
  }

  /** One page of `prompts/list` (spec: server/prompts). */
  async listPrompts(params: PageParams = {}, options: CallOptions = {}): Promise<ListPromptsResult> {
    return (await this.parts.reads.listPage('prompts/list', params, options)) as ListPromptsResult;
  }

  /** One page of `resources/list` (spec: server/resources). */
  async listResources(params: PageParams = {}, options: CallOptions = {}): Promise<ListResourcesResult> {
    return (await this.parts.reads.listPage('resources/list', params, options)) as ListResourcesResult;
  }

  /** One page of `resources/templates/list` (spec: server/resources, Resource Templates). */
  async listResourceTemplates(
    params: PageParams = {},
    options: CallOptions = {},
  ): Promise<ListResourceTemplatesResult> {
    return (await this.parts.reads.listPage(
      'resources/templates/list',
      params,
      options,
    )) as ListResourceTemplatesResult;
  }

  /**
   * Walks a list page by page (spec: server/utilities/pagination): the first request carries no
   * `cursor`, each next one the previous `nextCursor` verbatim (`""` included), until a page has
   * none. Pages come from the cache when fresh; a completed walk is stored as one list (its
   * freshness is the shortest page TTL; one private page makes it all private).
   * @throws PaginationLimitError (-33004) on the page cap or a repeated page; PaginationError
   *   (-33004, `data.reason: "invalid-cursor"`) when a cursor is rejected again after one restart
   *   from page one; CancelledError (-32800) on abort; any error of a page request.
   */
  async *pages<M extends ListMethod>(
    method: M,
    options: WalkOptions = {},
  ): AsyncGenerator<Page<ListItemTypes[M]>, void, undefined> {
    const walk = this.parts.reads.listWalk(method, options);
    try {
      yield* walkPages(walk.fetchPage, walk.paginate);
      await walk.commit();
    } catch (error) {
      walk.scope?.fail(error);
      throw error;
    } finally {
      walk.scope?.succeed();
    }
  }

  /** Every tool, fetched page by page as they are consumed (`tools/list`). Errors as {@link pages}. */
  tools(options: WalkOptions = {}): AsyncGenerator<Tool, void, undefined> {
    return this.itemsOf('tools/list', options);
  }

  /** Every prompt (`prompts/list`). Errors as {@link pages}. */
  prompts(options: WalkOptions = {}): AsyncGenerator<Prompt, void, undefined> {
    return this.itemsOf('prompts/list', options);
  }

  /** Every resource (`resources/list`). Errors as {@link pages}. */
  resources(options: WalkOptions = {}): AsyncGenerator<Resource, void, undefined> {
    return this.itemsOf('resources/list', options);
  }

  /** Every resource template (`resources/templates/list`). Errors as {@link pages}. */
  resourceTemplates(options: WalkOptions = {}): AsyncGenerator<ResourceTemplate, void, undefined> {
    return this.itemsOf('resources/templates/list', options);
  }

  /** The whole `tools/list`: `{ items, pages, results }`; never a partial list. Errors as {@link pages}. */
  listAllTools(options: WalkOptions = {}): Promise<ListAllResult<Tool>> {
    return this.parts.reads.listAllOf('tools/list', options);
  }

  /** The whole `prompts/list`. Errors as {@link pages}. */
  listAllPrompts(options: WalkOptions = {}): Promise<ListAllResult<Prompt>> {
    return this.parts.reads.listAllOf('prompts/list', options);
  }

  /** The whole `resources/list`. Errors as {@link pages}. */
  listAllResources(options: WalkOptions = {}): Promise<ListAllResult<Resource>> {
    return this.parts.reads.listAllOf('resources/list', options);
  }

  /** The whole `resources/templates/list`. Errors as {@link pages}. */
  listAllResourceTemplates(options: WalkOptions = {}): Promise<ListAllResult<ResourceTemplate>> {
    return this.parts.reads.listAllOf('resources/templates/list', options);
  }

  private async *itemsOf<M extends ListMethod>(
    method: M,
    options: WalkOptions,
  ): AsyncGenerator<ListItemTypes[M], void, undefined> {
    for await (const page of this.pages(method, options)) yield* page.items;
  }
}
