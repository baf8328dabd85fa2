from django.db import models


class Review(models.Model):
    product_sku = models.CharField(max_length=40, db_index=True)
    body = models.TextField()
    lang = models.CharField(max_length=8, blank=True)
    score = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
