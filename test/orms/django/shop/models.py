# The models of t/076_orms.pl, in the stage SHOP_STAGE names: 1, as first
# made; 2, Tag's key switched from AutoField to BigAutoField; 3, Author's
# key switched from BigAutoField to AutoField.
import os

from django.db import models

STAGE = int(os.environ.get("SHOP_STAGE", "1"))


class Author(models.Model):
    if STAGE >= 3:
        id = models.AutoField(primary_key=True)
    name = models.TextField()


class Book(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE)
    title = models.TextField()


class Tag(models.Model):
    id = models.AutoField(primary_key=True) if STAGE < 2 else models.BigAutoField(primary_key=True)
    label = models.TextField()
