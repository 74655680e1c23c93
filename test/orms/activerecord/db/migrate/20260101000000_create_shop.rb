# t/076_orms.pl's ActiveRecord migration: keys as Rails makes them
# (create_table's default key, bigserial since Rails 5.1), one table
# referencing the other.
class CreateShop < ActiveRecord::Migration[6.1]
  def change
    create_table :authors do |t|
      t.text :name, null: false
    end
    create_table :books do |t|
      t.references :author, null: false, foreign_key: true
      t.text :title, null: false
    end
  end
end
