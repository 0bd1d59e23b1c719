from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site's own pages: the home page, the health endpoints, the service worker and
    the error pages. The kernel they stand on is ``core``."""

    name = "clabber_league.site"
    label = "site"
    verbose_name = "Site pages"
