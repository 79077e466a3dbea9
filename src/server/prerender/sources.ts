import type { RouteSource } from '../../features/platform/route-source.ts';
import { contentPageSource } from '../../features/content-page/source.server.ts';
import { searchPageSource } from '../../features/search/source.server.ts';
import { editorialSource } from '../../features/editorial/source.server.ts';
import { catalogueSource } from '../../features/catalogue/source.server.ts';
import { comparisonSource } from '../../features/comparison/load.server.ts';

export type { RouteSource, RouteSourceContext, SourcedRoute } from '../../features/platform/route-source.ts';

/** The static route sources, in order: each feature owns its source (`src/features/<feature>/source.server.ts`). */
export const ROUTE_SOURCES: RouteSource[] = [contentPageSource, searchPageSource, editorialSource, catalogueSource, comparisonSource];
