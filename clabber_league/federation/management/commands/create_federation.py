"""``manage.py create_federation SLUG NAME --admin USERNAME [--prefix NKU-] [--country ..]
[--private]``: a new federation with its first federation admin (docs/federation.md)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clabber_league.core.errors import ServiceError

from ...services import federation_create


class Command(BaseCommand):
    help = "Create a federation and make a user its first federation admin."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="short name, as in its URL: /federations/<slug>/")
        parser.add_argument("name", help="the federation's name")
        parser.add_argument("--admin", required=True, help="username of its first admin")
        parser.add_argument("--prefix", default="", help="player number prefix, e.g. NKU-")
        parser.add_argument("--country", default="")
        parser.add_argument(
            "--private", action="store_true", help="only its officers may read its pages"
        )

    def handle(self, *args, **options):
        admin = get_user_model().objects.filter(username=options["admin"]).first()
        if admin is None:
            raise CommandError(f"No user named {options['admin']!r}.")
        try:
            federation = federation_create(
                name=options["name"],
                slug=options["slug"],
                number_prefix=options["prefix"],
                country=options["country"],
                is_public=not options["private"],
                admin=admin,
            )
        except ServiceError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Federation {federation.name} created: /federations/{federation.slug}/ "
            f"(admin: {admin.get_username()})."
        )
