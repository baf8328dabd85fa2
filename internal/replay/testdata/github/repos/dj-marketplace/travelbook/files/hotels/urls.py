from django.urls import path

from . import views

urlpatterns = [
    path("", views.search_locations, name="search"),
    path("results/", views.hotel_results, name="results"),
    path("hotel/<str:hotel_id>/reviews/", views.HotelReviewsView.as_view(), name="reviews"),
]
