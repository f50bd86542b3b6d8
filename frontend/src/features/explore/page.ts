/** Series Explore asks for at once: a million series must not all come before a chart is drawn. */
export const EXPLORE_PAGE = 200;
