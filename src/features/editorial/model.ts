import type { MediaRelease, MediaReleaseItem, Story, StoryCategory, StoryContact, StoryListItem } from '../../lib/content/index.ts';
import type { RequestContext } from '../../site/request.ts';
import type { ChromeModel } from '../platform/page-model.ts';
import type { ListQuery } from './paging.ts';

/** The models of the editorial routes; each is all its page renders (and its `_payload.json`). */

export interface StoryOverviewModel extends ChromeModel {
  kind: 'story-overview';
  categories: StoryCategory[];
  stories: StoryListItem[];
  total: number;
  query: ListQuery;
  pageSize: number;
}

export interface StoryDetailModel extends ChromeModel {
  kind: 'story-detail';
  story: Story;
}

export interface StoryContactsModel extends ChromeModel {
  kind: 'story-contacts';
  contacts: StoryContact[];
}

export interface StoryContactModel extends ChromeModel {
  kind: 'story-contact';
  contact: StoryContact;
  stories: StoryListItem[];
}

export interface MediaReleaseListModel extends ChromeModel {
  kind: 'media-release-list';
  releases: MediaReleaseItem[];
  total: number;
  query: ListQuery;
  pageSize: number;
}

export interface MediaReleaseDetailModel extends ChromeModel {
  kind: 'media-release-detail';
  release: MediaRelease;
}

export type EditorialModel = StoryOverviewModel | StoryDetailModel | StoryContactsModel | StoryContactModel | MediaReleaseListModel | MediaReleaseDetailModel;

/** Stories and media releases exist on the main site only; elsewhere they are a 404. */
export function editorialOffered(req: Pick<RequestContext, 'site'>): boolean {
  return req.site.isMain;
}
