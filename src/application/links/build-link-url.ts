import { linkUrl, type LinkInput } from '../../domain/link';

export class BuildLinkUrl {
  /** The URL a link with this input would have (decision 0013), without saving anything. */
  execute(input: LinkInput): string {
    return linkUrl(input);
  }
}
