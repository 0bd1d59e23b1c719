from django.contrib import admin

from .models import Federation, FederationClub, FederationPlayer, Officer, PlayerLink, PlayerMerge

admin.site.register(Federation)
admin.site.register(FederationClub)
admin.site.register(Officer)
admin.site.register(FederationPlayer)
admin.site.register(PlayerLink)
admin.site.register(PlayerMerge)
