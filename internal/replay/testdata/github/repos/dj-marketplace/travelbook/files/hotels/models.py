from django.db import models


class SavedSearch(models.Model):
    dest_id = models.CharField(max_length=32)
    checkin = models.DateField()
    checkout = models.DateField()
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.dest_id} {self.checkin}..{self.checkout}"
