# The Django project of t/076_orms.pl: one app, shop, whose keys are
# BigAutoField (DEFAULT_AUTO_FIELD), on the server the environment names
# (PGHOST, PGPORT, PGUSER, PGDATABASE), every connection with
# uniqueid.serial_normalization = snowflake, beside Django's own
# contenttypes and auth, whose keys are AutoField.
import os

SECRET_KEY = "uniqueid-t076"
USE_TZ = True
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "shop"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "HOST": os.environ["PGHOST"],
        "PORT": os.environ["PGPORT"],
        "USER": os.environ["PGUSER"],
        "NAME": os.environ["PGDATABASE"],
        "OPTIONS": {"options": "-c uniqueid.serial_normalization=snowflake"},
    }
}
