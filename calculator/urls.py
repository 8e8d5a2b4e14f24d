from django.urls import path

from . import api

urlpatterns = [
    path("api/score", api.api_score, name="api_score"),
]
