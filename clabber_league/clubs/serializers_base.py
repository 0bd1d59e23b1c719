"""Serializers whose related fields only accept rows of the club in the URL."""

from typing import Any

from rest_framework import serializers


class ClubScopedSerializer(serializers.ModelSerializer):
    """Every related-id field offers only the rows of ``context["club"]``.

    A team of another club, sent by id, is "object does not exist" — exactly as if
    there were no such id — so ids never leak across clubs.
    """

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        club = self.context.get("club")
        for field in fields.values():
            target = getattr(field, "child_relation", field)
            if isinstance(target, serializers.PrimaryKeyRelatedField) and not target.read_only:
                queryset = target.queryset
                if queryset is None:
                    continue
                model = queryset.model
                if club is None:
                    target.queryset = queryset.none()
                elif model._meta.model_name == "club":
                    target.queryset = queryset.filter(pk=club.pk)
                elif any(f.name == "club" for f in model._meta.get_fields()):
                    target.queryset = queryset.filter(club=club)
        return fields

    def create(self, validated_data: dict[str, Any]) -> Any:
        validated_data["club"] = self.context["club"]
        return super().create(validated_data)
